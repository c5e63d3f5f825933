#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file mapped read-only for a header read: the pages a codec's header parse never touches are never read
/// from disk, so `info` costs what the header is, not what the file is (a 3.5 MB WebP's header is one page).
///
/// Nothing is copied and nothing is allocated for the bytes. A file that another process shrinks while it
/// is mapped would fault on the lost pages, so only short-lived header reads use it; decoders read files
/// through ``Image/readFile(_:byteLimit:)`` or the thumbnailer's descriptor.
final class MappedFile {
    /// The path, for error messages.
    let path: String
    /// The file's size in bytes.
    let byteCount: Int
    /// The mapping, or `nil` for an empty file (which cannot be mapped).
    private let base: UnsafeMutableRawPointer?

    /// Maps the regular file at `path`; a folder or anything unreadable is an ``ImageDecodingError/unreadable(path:reason:)``.
    init(path: String) throws(ImageDecodingError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.unreadable(path) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.unreadable(path) }
        if status.st_mode & S_IFMT == S_IFDIR { throw .unreadable(path: path, reason: ImageDecodingError.isAFolder) }
        self.path = path
        byteCount = Int(status.st_size)
        guard byteCount > 0 else {
            base = nil
            return
        }
        let mapped = mmap(nil, byteCount, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let mapped, mapped != MAP_FAILED else { throw Self.unreadable(path) }
        // A fault would otherwise read ahead the disk's whole read-ahead window (8 MB on some virtual
        // disks), which is every byte of a photo: a header parse touches a few pages, so read only those.
        _ = madvise(mapped, byteCount, Int32(MADV_RANDOM))
        base = mapped
    }

    /// Runs `body` with the file's bytes, valid only during the call.
    func withBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : byteCount))
    }

    deinit {
        if let base { munmap(base, byteCount) }
    }

    private static func unreadable(_ path: String) -> ImageDecodingError {
        .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
}
