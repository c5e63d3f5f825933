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
        _ = try writeStreamed(to: path, replacing: true, flushes: flushes, contents: contents)
    }

    /// Writes a file whose bytes `contents` produces as it goes, as ``write(to:flushes:contents:)`` does,
    /// but as a new file that never replaces anything, as ``writeNew(_:to:flushes:method:)`` does: `false`,
    /// with nothing changed and nothing left behind, when the name is taken once the bytes are written.
    /// A new file gets `0666` less the umask.
    package static func writeNew(
        to path: String, flushes: Bool = true, contents: (_ descriptor: Int32) throws -> Void
    ) throws -> Bool {
        try writeStreamed(to: path, replacing: false, flushes: flushes, contents: contents)
    }

    /// The two streamed writes: a `mkstemp` file filled by `contents`, given its mode, then ``publish``ed.
    private static func writeStreamed(
        to path: String, replacing: Bool, flushes: Bool, contents: (_ descriptor: Int32) throws -> Void
    ) throws -> Bool {
        let directory = parentDirectory(of: path)
        let temporary = try makeTemporary(for: path, directory: directory)
        do {
            try contents(temporary.descriptor)
        } catch var failure as Failure {
            abandon(temporary.descriptor, temporaryPath: temporary.path)
            // A row writer knows only the descriptor: its failed write is named by the file it was for.
            if failure.step == .write { failure.path = path }
            throw failure
        } catch {
            abandon(temporary.descriptor, temporaryPath: temporary.path)
            throw error
        }
        let kept = replacing ? keptPermissions(of: path) : nil
        _ = fchmod(temporary.descriptor, kept ?? 0o666 & ~processUmask)
        return try publish(
            temporary.descriptor, temporaryPath: temporary.path, as: path, directory: directory,
            replacing: replacing, flushes: flushes)
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
