import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AtomicFileWriter {
    /// Writes a file whose bytes `contents` produces as it goes (an encoder writing rows), atomically: the
    /// bytes go to `.NAME.part-XXXXXX` beside `path`, which is flushed and renamed over `path` only when
    /// `contents` returns. When `contents` throws, its error is rethrown and the temporary file removed, so
    /// `path` is left as it was and nothing else remains.
    ///
    /// Always a named temporary file, never an unnamed one: the bytes cannot be written a second time, so
    /// a folder whose file system turns out to refuse linking an unnamed file would have nowhere to go.
    /// Permissions are as ``write(_:to:flushes:method:permissions:)`` gives them.
    package static func write(
        to path: String, flushes: Bool = true, contents: (_ descriptor: Int32) throws -> Void
    ) throws {
        let directory = parentDirectory(of: path)
        var template = Array("\(directory)/.\(fileName(of: path))\(temporaryMarker)XXXXXX".utf8CString)
        // The template is a non-empty array, so its base address exists.
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure(step: .createTemporary, path: path, code: errno) }
        let temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            defer { close(descriptor) }
            try contents(descriptor)
            _ = fchmod(descriptor, keptPermissions(of: path) ?? 0o666 & ~processUmask)
            if flushes, fsync(descriptor) != 0 { throw Failure(step: .fsync, path: temporaryPath, code: errno) }
        } catch var failure as Failure {
            unlink(temporaryPath)
            // A row writer knows only the descriptor: its failed write is named by the file it was for.
            if failure.step == .write { failure.path = path }
            throw failure
        } catch {
            unlink(temporaryPath)
            throw error
        }
        guard rename(temporaryPath, path) == 0 else {
            let code = errno
            unlink(temporaryPath)
            throw Failure(step: .rename, path: path, code: code)
        }
        if flushes { syncDirectory(directory) }
    }

    /// Writes every byte of `buffer` to an open descriptor, resuming after short writes and interruptions.
    package static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws(Failure) {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(step: .write, path: path, code: errno)
            }
            offset += written
        }
    }
}
