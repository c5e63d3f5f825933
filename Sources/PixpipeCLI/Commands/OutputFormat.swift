/// A file format `pixpipe convert` writes.
enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    /// PNG.
    case png
    /// JPEG.
    case jpeg
    /// PGM or PPM netpbm (`P5`/`P6`): alpha composited over white.
    case ppm
    /// PAM netpbm (`P7`): alpha kept.
    case pam

    /// The file extensions that name each format, for messages.
    static let knownExtensions = ["png", "jpg", "jpeg", "ppm", "pgm", "pnm", "pam"]

    /// The format a `--format` value names; `jpg`, `pgm` and `pnm` are accepted as aliases.
    init?(name: String) {
        switch name.lowercased() {
        case "png": self = .png
        case "jpeg", "jpg": self = .jpeg
        case "ppm", "pgm", "pnm": self = .ppm
        case "pam": self = .pam
        default: return nil
        }
    }

    /// The format the extension of `path` names, or `nil` (no extension, or an unknown one).
    init?(path: String) {
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
        self.init(name: String(fileName[fileName.index(after: dot)...]))
    }
}
