import Pixpipe

extension ImageFormat {
    /// Why the image format that the extension of `path` names cannot be written, or `nil` when the
    /// extension names no known image format (or a writable one): "GIF: Pixpipe reads but does not write
    /// this format", "BMP: not supported".
    static func unwritableReason(path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let fileExtension = String(name[name.index(after: dot)...])
        if let format = ImageFormat(name: fileExtension) {
            return format.canEncode
                ? nil : "\(format.rawValue.uppercased()): Pixpipe reads but does not write this format"
        }
        return ForeignImageFormat.named(fileExtension: fileExtension).map { "\($0.name): not supported" }
    }
}
