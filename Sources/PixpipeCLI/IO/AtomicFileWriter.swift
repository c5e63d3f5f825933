import Foundation

#if canImport(Glibc)
    import Glibc

    /// POSIX `write`, named apart from ``AtomicFileWriter/write(_:to:)``.
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin

    /// POSIX `write`, named apart from ``AtomicFileWriter/write(_:to:)``.
    private let systemWrite = Darwin.write
#endif

/// Writes a file so that readers see either the old file or the whole new one, never a partial one.
///
/// The bytes go to a temporary file `.NAME.tmp-XXXXXX` beside the destination (same directory, hence the
/// same file system, so the final `rename` is atomic), are flushed to disk with `fsync`, and only then
/// renamed over the destination. On any failure the temporary file is removed and the destination, if it
/// existed, is left untouched.
enum AtomicFileWriter {
    /// Writes `data` to `path`, replacing any existing file.
    ///
    /// A new file gets the usual permissions (`0666` less the umask); a replaced file keeps its own.
    static func write(_ data: Data, to path: String) throws(OutputWriteError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var template = Array("\(directory)/.\(url.lastPathComponent).tmp-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .cannotCreateTemporaryFile(directory: directory, errno: errno) }
        let temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer { if !renamed { unlink(temporaryPath) } }
        func fillAndClose() throws(OutputWriteError) {
            defer { close(descriptor) }
            try writeAll(data, to: descriptor, path: temporaryPath)
            fchmod(descriptor, permissions(replacing: path))
            guard fsync(descriptor) == 0 else { throw .writeFailed(path: temporaryPath, errno: errno) }
        }
        try fillAndClose()
        guard rename(temporaryPath, path) == 0 else { throw .renameFailed(destination: path, errno: errno) }
        renamed = true
        syncDirectory(directory)
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(OutputWriteError) {
        let failure: Int32? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .writeFailed(path: path, errno: failure) }
    }

    /// The mode of the file being replaced, or `0666` less the process umask for a new file.
    private static func permissions(replacing path: String) -> mode_t {
        var status = stat()
        if stat(path, &status) == 0 { return status.st_mode & 0o7777 }
        return 0o666 & ~processUmask
    }

    /// The process umask, read once: it can only be read by setting it, which is safe only while no other
    /// thread creates files, so it is read the first time, before `pixpipe thumbnail` writes in parallel,
    /// and never again (a `static let` is initialized exactly once, even under concurrent first use).
    private static let processUmask: mode_t = {
        let mask = umask(0)
        umask(mask)
        return mask
    }()

    /// Flushes the directory entry of the rename; best effort, as some file systems refuse it.
    private static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
