#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An image file opened for thumbnailing: its descriptor, size and sniffed format.
///
/// The decoders read it through the descriptor in small pieces, so a 40 MB PNG or a 10 MB JPEG is never
/// held whole in memory: peak memory is the decoder's buffers plus what the resize keeps.
final class ThumbnailSourceFile {
    /// The open file, positioned at its start.
    let descriptor: Int32
    /// The path, for error messages.
    let path: String
    /// The file's size in bytes.
    let byteCount: Int
    /// The format its first bytes name, or `nil`.
    let format: ImageFormat?

    /// Opens `path`; refuses a file larger than `byteLimit` and anything that cannot be read.
    init(path: String, byteLimit: Int?) throws(ImageDecodingError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.unreadable(path) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = Self.unreadable(path)
            close(descriptor)
            throw error
        }
        let byteCount = Int(status.st_size)
        if let byteLimit, byteCount > byteLimit {
            close(descriptor)
            throw .inputTooLarge(bytes: byteCount, limit: byteLimit)
        }
        // The signature is read with pread, so the descriptor stays at offset 0 for the decoder.
        var signature = [UInt8](repeating: 0, count: 8)
        let read = signature.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard read >= 0 else {
            let error = Self.unreadable(path)
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.path = path
        self.byteCount = byteCount
        format = ImageFormat.sniff(signature.prefix(read))
    }

    deinit { close(descriptor) }

    private static func unreadable(_ path: String) -> ImageDecodingError {
        .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
}
