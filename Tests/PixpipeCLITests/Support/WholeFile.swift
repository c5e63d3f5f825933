import Foundation

/// Reads a whole file through `FileHandle` rather than `Data(contentsOf:)`.
///
/// On Linux, `Data(contentsOf:)` and `String(contentsOf:)` of an empty regular file leak the 4 KiB buffer
/// FoundationEssentials allocates for files that report a size of 0 (it returns an empty `Data` without
/// freeing it). The children's standard output and error files are often empty, and under
/// `scripts/test --sanitize address` every such read was a LeakSanitizer report.
enum WholeFile {
    /// The bytes of the file at `url`.
    static func data(at url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }

    /// The file at `url` as UTF-8 text (invalid bytes replaced), or "" when it cannot be read.
    static func text(at url: URL) -> String {
        guard let data = try? data(at: url) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
