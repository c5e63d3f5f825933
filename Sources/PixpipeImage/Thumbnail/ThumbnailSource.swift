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
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(ThumbnailError) -> R) throws(ThumbnailError) -> R {
        switch self {
        case .bytes(let bytes):
            return try body(bytes)
        case .file(let file):
            let contents = try Thumbnailer.decoding { () throws(ImageDecodingError) in try file.readAll() }
            return try contents.withTypedBytes(body)
        }
    }
}
