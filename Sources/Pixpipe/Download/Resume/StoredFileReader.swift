import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a stored file of an output folder for a resumed batch: its size and SHA-256, with one buffer and
/// one digest context reused for every file.
///
/// Per file: ``StoredName/open(_:in:)`` against the folder's descriptor (one `openat2` or `openat`, no walk
/// of the folder's path, no symbolic link followed), `fstat` (a size other
/// than the recorded one ends the check with no reading), then `read`s through libcrypto's SHA-256. A file
/// of the recorded size is read asking for a byte more than that size: getting exactly the size back (fewer
/// bytes than asked, from a regular file) is its end, so no further `read` is needed to see zero bytes;
/// getting more is a changed file. A reader is used by one thread at a time (``ResumeCheck`` gives each of
/// its lanes its own).
final class StoredFileReader {
    /// The bytes read per `read`; the buffer's whole size, whatever the file's.
    static let chunkSize = 256 << 10

    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    private var hasher = SHA256()

    /// A reader with its own buffer and digest context.
    init() {}

    deinit {
        buffer.deallocate()
    }

    /// The size and SHA-256 of the regular file `name` in the folder open as `directory`; `nil` when it cannot
    /// be read, or when its size is not `expectedBytes` (a changed file: not worth hashing).
    func sizeAndDigest(named name: [UInt8], expectedBytes: Int?, in directory: Int32) -> (Int, SHA256.Digest)? {
        // Through the one place that resolves a stored name inside the folder: a name this program could not
        // have written, a symbolic link or an escape from the folder is not a stored file.
        let descriptor = StoredName.open(name, in: directory)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        if let expectedBytes, Int(status.st_size) != expectedBytes { return nil }
        hasher.reset()
        var total = 0
        while true {
            // One byte more than the recorded size, at most: a longer file shows as soon as it is read.
            let wanted = expectedBytes.map { min(buffer.count, $0 + 1 - total) } ?? buffer.count
            let count = read(descriptor, buffer.baseAddress, wanted)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            hasher.update(bytes: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            total += count
            if let expectedBytes {
                if total > expectedBytes { return nil }
                // Fewer bytes than asked for from a regular file is its end.
                if total == expectedBytes, count < wanted { break }
            }
        }
        // The file may have changed size while being read: the bytes actually hashed are what counts.
        if let expectedBytes, total != expectedBytes { return nil }
        return (total, hasher.finalize())
    }
}
