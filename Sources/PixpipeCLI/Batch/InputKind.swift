import Foundation
import Pixpipe

/// What a file found under an input folder is, for the batch commands: an image to process, something
/// that looks like an image but is not read (reported, with why), or another file (left out quietly).
///
/// A file looks like an image by its bytes (the codecs' sniffing, or a ``ForeignImageFormat``'s signature)
/// or by a known image file extension; a `.txt` or a `.DS_Store` is none of these.
enum InputKind: Sendable, Hashable {
    /// An image in a decodable format.
    case image(InputProbe)
    /// Looks like an image but is not read: `reason` says why (`BMP image: not supported`, `empty file`).
    case unsupported(reason: String)
    /// Named like a decodable format, but its bytes match no format this tool reads.
    case notAnImage(BatchFailure)
    /// Not an image: left out without a word.
    case other

    /// The kind of the file at `path`; `countsFrames` as for ``InputProbe/init(path:countsFrames:)``.
    init(path: String, countsFrames: Bool) {
        if let probe = InputProbe(path: path, countsFrames: countsFrames) {
            self = .image(probe)
            return
        }
        let fileExtension = URL(fileURLWithPath: path).pathExtension.lowercased()
        let prefix = FileHandle(forReadingAtPath: path).flatMap { handle in
            defer { try? handle.close() }
            return try? handle.read(upToCount: RecognizedContent.prefixLength)
        }
        self.init(prefix: prefix ?? Data(), fileExtension: fileExtension)
    }

    /// The kind of a file (not sniffed as decodable) from its leading bytes and its extension, named as
    /// ``RecognizedContent`` names it for `info` and `convert`.
    init(prefix: Data, fileExtension: String) {
        let decodableExtension = ImageFormat(name: fileExtension)?.canDecode ?? false
        let foreign = ForeignImageFormat.named(fileExtension: fileExtension)
        let recognized = RecognizedContent(prefix)
        switch recognized {
        case .imageFormat:
            self = .unsupported(reason: recognized.description)
        case .empty where decodableExtension || foreign != nil:
            self = .unsupported(reason: recognized.description)
        case _ where foreign != nil:
            let writable = foreign?.writableFormat?.canEncode ?? false
            self = .unsupported(
                reason: RecognizedContent.imageFormat(name: foreign?.name ?? "", writable: writable).description)
        case _ where decodableExtension:
            self = .notAnImage(BatchFailure(ImageDecodingError.unsupportedFormat(recognized: recognized)))
        default:
            self = .other
        }
    }
}
