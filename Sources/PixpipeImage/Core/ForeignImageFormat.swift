/// An image format known by its magic bytes and file extensions that no codec in the table decodes, so
/// that messages can name it ("BMP image: not supported") instead of calling it unknown.
///
/// The one list of such formats: ``RecognizedContent`` sniffs with it and the command line names output
/// extensions with it.
package struct ForeignImageFormat: Sendable {
    /// The name people know it by: "BMP".
    package let name: String
    /// Its file extensions, lowercased.
    package let fileExtensions: [String]
    /// The table's format when Pixpipe writes it without reading it (Netpbm), else `nil`.
    package let writableFormat: ImageFormat?
    /// Whether a prefix starts a file of the format.
    package let matches: @Sendable ([UInt8]) -> Bool

    /// Every foreign format, the ones with the longest magic first.
    package static let all: [ForeignImageFormat] =
        [
            ForeignImageFormat(name: "JPEG 2000", fileExtensions: ["jp2", "j2k", "jpf", "jpx"], writableFormat: nil) {
                $0.starts(with: [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || $0.starts(with: [0xFF, 0x4F, 0xFF, 0x51])
            },
            ForeignImageFormat(name: "OpenEXR", fileExtensions: ["exr"], writableFormat: nil) {
                $0.starts(with: [0x76, 0x2F, 0x31, 0x01])
            },
            ForeignImageFormat(name: "Photoshop", fileExtensions: ["psd", "psb"], writableFormat: nil) {
                $0.starts(with: Array("8BPS".utf8))
            },
            ForeignImageFormat(name: "QOI", fileExtensions: ["qoi"], writableFormat: nil) {
                $0.starts(with: Array("qoif".utf8))
            },
            ForeignImageFormat(name: "ICO", fileExtensions: ["ico", "cur"], writableFormat: nil) {
                $0.count >= 6 && ($0.starts(with: [0, 0, 1, 0]) || $0.starts(with: [0, 0, 2, 0])) && $0[4] | $0[5] != 0
            },
            ForeignImageFormat(name: "BMP", fileExtensions: ["bmp", "dib"], writableFormat: nil) {
                // "BM", then a reserved pair of zero words at offset 6: two letters alone start too many texts.
                $0.count >= 10 && $0.starts(with: Array("BM".utf8)) && $0[6..<10].allSatisfy { $0 == 0 }
            },
            ForeignImageFormat(name: "SVG", fileExtensions: ["svg", "svgz"], writableFormat: nil) {
                let markup = RecognizedContent.markup($0)
                return markup.starts(with: Array("<svg".utf8))
                    || (markup.starts(with: Array("<?xml".utf8)) && markup.firstRange(of: Array("<svg".utf8)) != nil)
            },
            ForeignImageFormat(name: "XCF", fileExtensions: ["xcf"], writableFormat: nil) {
                $0.starts(with: Array("gimp xcf".utf8))
            },
            ForeignImageFormat(name: "ICNS", fileExtensions: ["icns"], writableFormat: nil) {
                $0.starts(with: Array("icns".utf8))
            },
            ForeignImageFormat(name: "Radiance HDR", fileExtensions: ["hdr"], writableFormat: nil) {
                $0.starts(with: Array("#?RADIANCE".utf8)) || $0.starts(with: Array("#?RGBE".utf8))
            },
            ForeignImageFormat(name: "PAM", fileExtensions: ["pam"], writableFormat: .pam) {
                $0.starts(with: Array("P7\n".utf8))
            },
            ForeignImageFormat(name: "Netpbm", fileExtensions: ["ppm", "pgm", "pbm", "pnm"], writableFormat: .ppm) {
                $0.count >= 3 && $0[0] == UInt8(ascii: "P") && (UInt8(ascii: "1")...UInt8(ascii: "6")).contains($0[1])
                    && [0x20, 0x09, 0x0A, 0x0D].contains($0[2])
            },
        ] + extensionOnly

    /// Formats known by their extensions alone: no magic bytes (TGA), or a TIFF or ISO container that a
    /// codec here may open first (camera raw files, HEIF sequences).
    private static let extensionOnly: [ForeignImageFormat] = [
        ("TGA", ["tga"]), ("Canon raw", ["cr2", "cr3", "crw"]), ("Nikon raw", ["nef", "nrw"]),
        ("Sony raw", ["arw", "srf", "sr2"]), ("DNG raw", ["dng"]), ("Olympus raw", ["orf"]),
        ("Panasonic raw", ["rw2"]), ("Fujifilm raw", ["raf"]), ("Pentax raw", ["pef"]), ("Samsung raw", ["srw"]),
        ("Sigma raw", ["x3f"]), ("Hasselblad raw", ["3fr"]), ("Phase One raw", ["iiq"]),
        ("HEIF sequence", ["heics"]),
    ].map { name, fileExtensions in
        ForeignImageFormat(name: name, fileExtensions: fileExtensions, writableFormat: nil) { _ in false }
    }

    /// The foreign format whose extensions include `fileExtension` (any case), or `nil`.
    package static func named(fileExtension: String) -> ForeignImageFormat? {
        let lowered = fileExtension.lowercased()
        return all.first { $0.fileExtensions.contains(lowered) }
    }
}
