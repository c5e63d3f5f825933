import CPixpipeSystem
import Foundation
import PixpipeLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AtomicFileWriter {
    /// What an attempt at an unnamed file came to.
    enum UnnamedResult: Sendable, Hashable {
        /// The file is under its name.
        case written
        /// The folder's file system has no unnamed files (or no way to link them): nothing was created.
        case unsupported
    }

    /// Writes `data` to an unnamed file in `directory` and links it under `path`; a file already there is
    /// replaced through a temporary name, keeping its permission bits (unless `permissions` is given).
    ///
    /// Per new file: one `open` (the mode comes from its argument, less the umask, so no `fchmod`), the
    /// `write`s, one `linkat` (plus `fsync`s with `flushes`). No name is looked up before: the downloader's
    /// names are claimed per batch, so the link almost always makes a new entry. A failure before the link
    /// leaves nothing behind: the file never had a name and vanishes when closed.
    static func writeUnnamed(
        _ data: Data, to path: String, directory: String, flushes: Bool, permissions: mode_t?
    ) throws(Failure) -> UnnamedResult {
        let descriptor = pxp_open_unnamed(directory, permissions ?? 0o666)
        guard descriptor >= 0 else {
            let code = errno
            if code == EOPNOTSUPP || code == EISDIR || code == EINVAL || code == ENOTSUP { return .unsupported }
            throw Failure(step: .createTemporary, path: path, code: code)
        }
        defer { close(descriptor) }
        // `open` applies the umask; an exact mode asked for is set whole.
        if let permissions { _ = fchmod(descriptor, permissions) }
        try writeAll(data, to: descriptor, path: path)
        let code = try publishUnnamed(descriptor, as: path, directory: directory, flushes: flushes)
        switch code {
        case 0: return .written
        case EEXIST:
            if permissions == nil, let kept = keptPermissions(of: path) { _ = fchmod(descriptor, kept) }
            try replace(path, with: descriptor, directory: directory, flushes: flushes)
            return .written
        case ENOENT, EPERM, EXDEV, EOPNOTSUPP, EINVAL:
            // No `/proc` to link through, or a file system refusing links: the named path works there.
            return .unsupported
        default:
            throw Failure(step: .rename, path: path, code: code)
        }
    }

    /// Replaces the file at `path` with the unnamed file `descriptor` (its mode already set): it is linked
    /// under a fresh temporary name, and renamed over (a link never replaces).
    private static func replace(
        _ path: String, with descriptor: Int32, directory: String, flushes: Bool
    ) throws(Failure) {
        let prefix = "\(directory)/.\(fileName(of: path))\(temporaryMarker)"
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let temporaryPath = prefix + randomSuffix(using: &generator)
            guard pxp_link_unnamed(descriptor, temporaryPath) == 0 else {
                if errno == EEXIST { continue }
                throw Failure(step: .createTemporary, path: path, code: errno)
            }
            // The new mode is metadata the first flush did not carry.
            if flushes, fsync(descriptor) != 0 {
                let code = errno
                unlink(temporaryPath)
                throw Failure(step: .fsync, path: temporaryPath, code: code)
            }
            guard rename(temporaryPath, path) == 0 else {
                let code = errno
                unlink(temporaryPath)
                throw Failure(step: .rename, path: path, code: code)
            }
            if flushes { syncDirectory(directory) }
            return
        }
        throw Failure(step: .createTemporary, path: path, code: EEXIST)
    }

    /// Six letters or digits, as `mkstemp` puts in place of its `XXXXXX`.
    private static func randomSuffix(using generator: inout SystemRandomNumberGenerator) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<6).map { _ in letters[Int(generator.next(upperBound: UInt64(letters.count)))] })
    }
}

/// Which folders' file systems have unnamed files, learned from the first write into each: a folder is
/// tried once, and marked when the system refuses, so every later write there goes straight to the
/// temporary-name path.
package final class UnnamedFileSupport: Sendable {
    /// The one table of the process.
    package static let shared = UnnamedFileSupport()

    /// The folders found without unnamed files. A few per process at most (one per output folder on such a
    /// file system); bounded all the same, since forgetting one only costs one more refused `open`.
    private let unsupported = Locked<Set<String>>([])

    /// Whether writes into `directory` should try an unnamed file.
    package func isSupported(in directory: String) -> Bool {
        unsupported.withLock { !$0.contains(directory) }
    }

    /// Records that `directory`'s file system refused an unnamed file.
    package func markUnsupported(_ directory: String) {
        unsupported.withLock { folders in
            if folders.count >= 256 { folders.removeAll() }
            folders.insert(directory)
        }
    }
}
