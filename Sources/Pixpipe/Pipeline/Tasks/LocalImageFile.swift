import Foundation
import PixpipeImage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the bytes of a `file:` URL for an ``ImagePipeline``, held to the limits a download is held to.
///
/// Only a regular file is read: a FIFO, a device or a folder at the path is refused before any read (the
/// name is opened without waiting, so a FIFO with no writer cannot hang the pipeline's task). The size is
/// checked against the limit from `fstat` before reading, and the read stops one byte past the limit, so a
/// file that grows while it is read is refused too rather than read whole.
enum LocalImageFile {
    /// The bytes of the regular file at `path`, or why it cannot be an image source.
    static func read(_ path: String, byteLimit: Int?) throws(ImageDecodingError) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw failure(path, code: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(path, code: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .unreadable(path: path, reason: "not a regular file")
        }
        let size = Int(status.st_size)
        if let byteLimit, size > byteLimit { throw .inputTooLarge(bytes: size, limit: byteLimit) }
        let cap = byteLimit.map { $0 + 1 } ?? Int.max
        var data = Data(capacity: min(size, cap))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while data.count < cap {
            let wanted = min(chunk.count, cap - data.count)
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, code: errno)
            }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
        }
        if let byteLimit, data.count > byteLimit { throw .inputTooLarge(bytes: data.count, limit: byteLimit) }
        return data
    }

    /// The error for a failed system call on `path`.
    private static func failure(_ path: String, code: Int32) -> ImageDecodingError {
        .unreadable(path: path, reason: String(cString: strerror(code)))
    }
}

/// The C `read`, reachable where a method of the same name hides it.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
