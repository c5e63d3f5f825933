import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Image {
    /// Encodes the image with `encoding` and writes it to the file at `url` atomically: the name only ever
    /// shows the old file or the whole new one, never part of it, even across a crash.
    ///
    /// ```swift
    /// try image.write(to: URL(fileURLWithPath: "small.jpg"), as: .jpeg(quality: 85))
    /// ```
    ///
    /// The bytes are written beside the destination and given its name once flushed to the disk (see
    /// `AtomicFileWriter`); a file already there is replaced and keeps its permissions. A URL that is not a
    /// `file:` URL, or a folder that cannot be written, throws ``ImageEncodingError/unwritable(path:reason:)``.
    public func write(to url: URL, as encoding: ImageEncoding) throws(ImageEncodingError) {
        let path = try Self.filePath(of: url)
        if try writeRowsAtomically(to: path, as: encoding) { return }
        try Self.writeAtomically(encoded(as: encoding), to: path)
    }

    /// Writes the image to the file at `url` in the format its extension names (`.png`, `.jpg`, `.webp`,
    /// ...), atomically, with `quality` (1...100) for lossy formats or the format's default.
    ///
    /// ```swift
    /// try image.write(to: URL(fileURLWithPath: "photo.webp"), quality: 80)
    /// try image.write(to: URL(fileURLWithPath: "copy.png"))
    /// ```
    ///
    /// The settings are those `pixpipe convert` uses for the format (metadata kept); an extension that names
    /// no format throws ``ImageEncodingError/unknownFileExtension(path:)``, one that names a format the
    /// package only reads throws ``ImageEncodingError/unsupportedFormat(_:)``. See ``write(to:as:)``.
    public func write(to url: URL, quality: Int? = nil) throws(ImageEncodingError) {
        let path = try Self.filePath(of: url)
        guard let format = ImageFormat(path: path) else { throw .unknownFileExtension(path: path) }
        guard let encoding = ImageEncoding.standard(for: format, StandardEncodeSettings(quality: quality)) else {
            throw .unsupportedFormat(format)
        }
        if try writeRowsAtomically(to: path, as: encoding) { return }
        try Self.writeAtomically(encoded(as: encoding), to: path)
    }

    /// ``writeRows(to:as:flushes:)`` (encoded into the file, not into memory first), its failure translated;
    /// `false` where the codec has no row writer.
    private func writeRowsAtomically(to path: String, as encoding: ImageEncoding) throws(ImageEncodingError) -> Bool {
        do {
            return try writeRows(to: path, as: encoding)
        } catch let error as ImageEncodingError {
            throw error
        } catch let error as AtomicFileWriter.Failure {
            throw .unwritable(
                path: path, reason: "cannot \(error.step.rawValue) it: \(String(cString: strerror(error.code)))")
        } catch {
            throw .unwritable(path: path, reason: String(describing: error))
        }
    }

    /// The path of a `file:` URL; other URLs are refused.
    private static func filePath(of url: URL) throws(ImageEncodingError) -> String {
        guard url.isFileURL else {
            throw .unwritable(path: url.absoluteString, reason: "not a file URL (Image.write(to:) writes local files)")
        }
        return url.path
    }

    /// Writes `data` through the package's atomic writer, flushed, translating its failure.
    private static func writeAtomically(_ data: Data, to path: String) throws(ImageEncodingError) {
        do {
            try AtomicFileWriter.write(data, to: path)
        } catch {
            throw .unwritable(
                path: path, reason: "cannot \(error.step.rawValue) it: \(String(cString: strerror(error.code)))")
        }
    }
}
