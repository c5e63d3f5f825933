import Foundation
import Pixpipe

/// What a file found under an input folder is, for the batch commands: an image to process, something
/// that looks like an image but is not read (reported, with why), or another file (left out quietly).
///
/// A file looks like an image by its bytes (the codecs' sniffing, or one of a few signatures of formats no
/// codec reads) or by a known image file extension; a `.txt` or a `.DS_Store` is none of these.
enum InputKind: Sendable, Hashable {
    /// An image in a decodable format.
    case image(InputProbe)
    /// Looks like an image but is not read: `reason` says why (`BMP image: not supported`, `empty file`).
    case unsupported(reason: String)
    /// Named like a decodable format, but its bytes match no format this tool reads.
    case notAnImage(BatchFailure)
    /// Not an image: left out without a word.
    case other

    /// Extensions of image kinds no codec here reads, with the name messages give them.
    static let unreadableImageExtensions: [String: String] = [
        "bmp": "BMP", "dib": "BMP", "psd": "PSD", "psb": "PSD", "ico": "ICO", "icns": "ICNS", "cur": "ICO",
        "svg": "SVG", "svgz": "SVG", "jp2": "JPEG 2000", "j2k": "JPEG 2000", "jpx": "JPEG 2000",
        "tga": "TGA", "exr": "OpenEXR", "hdr": "Radiance HDR", "qoi": "QOI", "xcf": "XCF",
        "pbm": "Netpbm", "pgm": "Netpbm", "ppm": "Netpbm", "pnm": "Netpbm", "pam": "Netpbm",
        "cr2": "Canon raw", "cr3": "Canon raw", "crw": "Canon raw", "nef": "Nikon raw", "nrw": "Nikon raw",
        "arw": "Sony raw", "srf": "Sony raw", "sr2": "Sony raw", "dng": "DNG raw", "orf": "Olympus raw",
        "rw2": "Panasonic raw", "raf": "Fujifilm raw", "pef": "Pentax raw", "srw": "Samsung raw",
        "x3f": "Sigma raw", "3fr": "Hasselblad raw", "iiq": "Phase One raw", "heics": "HEIF sequence",
    ]

    /// Leading bytes of image kinds no codec here reads, with their names.
    private static let unreadableSignatures: [(bytes: [UInt8], name: String)] = [
        (Array("BM".utf8), "BMP"), (Array("8BPS".utf8), "PSD"), (Array("gimp xcf".utf8), "XCF"),
        ([0x76, 0x2F, 0x31, 0x01], "OpenEXR"), (Array("qoif".utf8), "QOI"),
        ([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20], "JPEG 2000"), ([0xFF, 0x4F, 0xFF, 0x51], "JPEG 2000"),
    ]

    /// The kind of the file at `path`; `countsFrames` as for ``InputProbe/init(path:countsFrames:)``.
    init(path: String, countsFrames: Bool) {
        if let probe = InputProbe(path: path, countsFrames: countsFrames) {
            self = .image(probe)
            return
        }
        let fileExtension = URL(fileURLWithPath: path).pathExtension.lowercased()
        let prefix = FileHandle(forReadingAtPath: path).flatMap { handle in
            defer { try? handle.close() }
            return try? handle.read(upToCount: ImageCodecs.signatureLength)
        }
        self.init(prefix: prefix ?? Data(), fileExtension: fileExtension)
    }

    /// The kind of a file (not sniffed as decodable) from its leading bytes and its extension.
    init(prefix: Data, fileExtension: String) {
        let bytes = Array(prefix)
        let decodableExtension = ImageFormat(name: fileExtension)?.canDecode ?? false
        let unreadableName = Self.unreadableImageExtensions[fileExtension]
        if let signature = Self.unreadableSignatures.first(where: { bytes.starts(with: $0.bytes) }),
            signature.name != "BMP" || unreadableName == "BMP" || decodableExtension
        {
            // "BM" starts much text; it counts as BMP only under an image's name.
            self = .unsupported(reason: "\(signature.name) image: not supported")
        } else if bytes.isEmpty && (decodableExtension || unreadableName != nil) {
            self = .unsupported(reason: "empty file, not an image")
        } else if let unreadableName {
            self = .unsupported(reason: "\(unreadableName) image: not supported")
        } else if decodableExtension {
            self = .notAnImage(
                BatchFailure(ImageDecodingError.unsupportedFormat(recognized: RecognizedContent(prefix))))
        } else {
            self = .other
        }
    }
}
