import CPixpipeSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AtomicFileWriter {
    /// A hidden temporary file made by `mkstemp` beside `path` in `directory` (mode `0600` until the writer
    /// sets one), open for writing.
    static func makeTemporary(for path: String, directory: String) throws(Failure) -> (
        descriptor: Int32, path: String
    ) {
        var template = Array("\(directory)/.\(fileName(of: path))\(temporaryMarker)XXXXXX".utf8CString)
        // The template is a non-empty array, so its base address exists.
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure(step: .createTemporary, path: path, code: errno) }
        return (descriptor, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Drops a temporary file whose bytes will not be published: closes it and removes its name.
    static func abandon(_ descriptor: Int32, temporaryPath: String) {
        close(descriptor)
        unlink(temporaryPath)
    }

    /// Gives the finished temporary file at `temporaryPath` (open as `descriptor`, its bytes and mode final)
    /// the name `path`: the one step that holds the durability and no-replace guarantees of every write
    /// through a temporary name.
    ///
    /// With `flushes`, the file is flushed before it gets its name and the folder after (a failure of the
    /// folder's flush loses nothing already visible, so it is ignored). With `replacing`, the file is renamed
    /// over whatever is at `path`; without, it takes the name only if it is free, in one system call
    /// (`RENAME_NOREPLACE`, or where the kernel or the file system lacks it a hard link, which never replaces
    /// either), and `false` is returned, with nothing changed, when the name is taken. The descriptor is
    /// closed, and on every outcome but success the temporary name is removed, so nothing is left behind.
    @discardableResult
    static func publish(
        _ descriptor: Int32, temporaryPath: String, as path: String, directory: String, replacing: Bool,
        flushes: Bool
    ) throws(Failure) -> Bool {
        let flushFailure: Int32? = flushes && fsync(descriptor) != 0 ? errno : nil
        close(descriptor)
        if let flushFailure {
            unlink(temporaryPath)
            throw Failure(step: .fsync, path: temporaryPath, code: flushFailure)
        }
        if replacing {
            guard rename(temporaryPath, path) == 0 else {
                let code = errno
                unlink(temporaryPath)
                throw Failure(step: .rename, path: path, code: code)
            }
        } else if pxp_rename_noreplace(temporaryPath, path) != 0 {
            var code = errno
            if code == EINVAL || code == ENOSYS {
                // The temporary name goes once the link is made (or refused).
                code = link(temporaryPath, path) == 0 ? 0 : errno
            }
            unlink(temporaryPath)
            if code == EEXIST { return false }
            if code != 0 { throw Failure(step: .rename, path: path, code: code) }
        }
        if flushes { syncDirectory(directory) }
        return true
    }

    /// Gives the finished unnamed file `descriptor` (its bytes and mode final) the name `path` in
    /// `directory`, never replacing (a link fails where the name is taken): flushed before the link and the
    /// folder after, with `flushes`, as ``publish(_:temporaryPath:as:directory:replacing:flushes:)`` does.
    /// Returns 0 once linked, else the link's `errno` for the caller to judge (`EEXIST`: the name is taken).
    /// The descriptor stays open: a caller may still link the file elsewhere.
    static func publishUnnamed(_ descriptor: Int32, as path: String, directory: String, flushes: Bool)
        throws(Failure) -> Int32
    {
        if flushes, fsync(descriptor) != 0 { throw Failure(step: .fsync, path: path, code: errno) }
        guard pxp_link_unnamed(descriptor, path) != 0 else {
            if flushes { syncDirectory(directory) }
            return 0
        }
        return errno
    }
}
