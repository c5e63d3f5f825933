#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a codec reads a thumbnail's source from: bytes in memory or an open file.
///
/// Codecs whose library can read from a file descriptor in small pieces (libpng, libjpeg) take ``file``
/// as it is, so a large source is never held whole; the others read it into memory through
/// ``withBytes(_:)``.
enum ThumbnailSource {
    /// Bytes the caller owns, valid for the thumbnail call.
    case bytes(UnsafeRawBufferPointer)
    /// An open file positioned at its start.
    case file(ThumbnailSourceFile)

    /// Calls `body` with the source's bytes, reading a file whole first.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(ImageProcessingError) -> R) throws(ImageProcessingError)
        -> R
    {
        switch self {
        case .bytes(let bytes):
            return try body(bytes)
        case .file(let file):
            let contents = try Thumbnailer.decoding { () throws(ImageDecodingError) in try file.readAll() }
            return try contents.withTypedBytes(body)
        }
    }
}

/// An image file opened for thumbnailing: its descriptor, size and the codec its first bytes name.
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
    /// The codec its first bytes name, or `nil`.
    let codec: (any ImageCodec)?
    /// What the first bytes are when no codec matched them (``RecognizedContent/unknown`` otherwise).
    let recognized: RecognizedContent

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
        if status.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw .unreadable(path: path, reason: ImageDecodingError.isAFolder)
        }
        let byteCount = Int(status.st_size)
        if let byteLimit, byteCount > byteLimit {
            close(descriptor)
            throw .inputTooLarge(bytes: byteCount, limit: byteLimit)
        }
        // The signature is read with pread, so the descriptor stays at offset 0 for the decoder.
        var signature = [UInt8](
            repeating: 0, count: max(ImageCodecs.signatureLength, RecognizedContent.prefixLength))
        let read = signature.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard read >= 0 else {
            let error = Self.unreadable(path)
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.path = path
        self.byteCount = byteCount
        codec = ImageCodecs.sniff(signature.prefix(read))
        recognized = codec == nil ? RecognizedContent(signature.prefix(read)) : .unknown
    }

    /// The whole file, for codecs whose library reads from memory only; the byte limit was checked on opening.
    func readAll() throws(ImageDecodingError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        var offset = 0
        while offset < byteCount {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + offset, byteCount - offset, off_t(offset))
            }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else {
                if read == 0 { break }
                throw Self.unreadable(path)
            }
            offset += read
        }
        // A file that shrank while being read is read as it now is: the decoder reports it truncated.
        if offset < byteCount { bytes.removeLast(byteCount - offset) }
        return bytes
    }

    /// Calls `body` with the file mapped read-only and private, or returns `nil` without calling it when
    /// the file cannot be mapped (empty, or not a regular file).
    ///
    /// The mapping is for codecs whose library reads from memory and that give back pages they are done
    /// with (TIFF). As with libtiff's own `TIFFOpen`, which maps files too, a file cut short by another
    /// process while mapped ends the process with SIGBUS.
    func withMapping<R>(
        _ body: (UnsafeRawBufferPointer) throws(ImageProcessingError) -> R
    ) throws(ImageProcessingError) -> R? {
        guard byteCount > 0 else { return nil }
        let address = mmap(nil, byteCount, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let address, address != MAP_FAILED else { return nil }
        defer { munmap(address, byteCount) }
        return try body(UnsafeRawBufferPointer(start: address, count: byteCount))
    }

    deinit { close(descriptor) }

    private static func unreadable(_ path: String) -> ImageDecodingError {
        .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
}
