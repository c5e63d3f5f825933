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
    /// Writes `data` as a new file at `path`, atomically as ``write(_:to:flushes:method:)`` does, but never
    /// over anything: `false`, with nothing changed, when the name is already taken (a file, a link, a
    /// folder, whoever put it there).
    ///
    /// The check and the naming are one system call, so two processes (or two writers of one process)
    /// publishing the same name at once cannot both succeed: the unnamed file is linked (`linkat` fails
    /// with `EEXIST`), the temporary name is renamed with `RENAME_NOREPLACE` (or, where the kernel or the
    /// file system lacks it, hard-linked and then removed). A new file gets `0666` less the umask.
    package static func writeNew(
        _ data: Data, to path: String, flushes: Bool = true, method: Method = .automatic
    ) throws(Failure) -> Bool {
        let directory = parentDirectory(of: path)
        if method == .automatic, UnnamedFileSupport.shared.isSupported(in: directory) {
            switch try linkNewUnnamed(data, to: path, directory: directory, flushes: flushes) {
            case .written: return true
            case .taken: return false
            case .unsupported: UnnamedFileSupport.shared.markUnsupported(directory)
            }
        }
        return try renameNew(data, to: path, directory: directory, flushes: flushes)
    }

    /// What a no-replace publish came to.
    private enum NewFileResult {
        case written
        case taken
        case unsupported
    }

    /// An unnamed file in `directory`, linked as `path` (never replacing).
    private static func linkNewUnnamed(
        _ data: Data, to path: String, directory: String, flushes: Bool
    ) throws(Failure) -> NewFileResult {
        let descriptor = pxp_open_unnamed(directory, 0o666)
        guard descriptor >= 0 else {
            let code = errno
            if code == EOPNOTSUPP || code == EISDIR || code == EINVAL || code == ENOTSUP { return .unsupported }
            throw Failure(step: .createTemporary, path: path, code: code)
        }
        defer { close(descriptor) }
        try writeAll(data, to: descriptor, path: path)
        let code = try publishUnnamed(descriptor, as: path, directory: directory, flushes: flushes)
        switch code {
        case 0: return .written
        case EEXIST: return .taken
        case ENOENT, EPERM, EXDEV, EOPNOTSUPP, EINVAL: return .unsupported
        default: throw Failure(step: .rename, path: path, code: code)
        }
    }

    /// A hidden temporary file beside `path` (created with `O_EXCL`, so its mode comes from `open` and the
    /// umask), ``publish``ed to `path` only if the name is free.
    private static func renameNew(_ data: Data, to path: String, directory: String, flushes: Bool) throws(Failure)
        -> Bool
    {
        let prefix = "\(directory)/.\(fileName(of: path))\(temporaryMarker)"
        var generator = SystemRandomNumberGenerator()
        var temporaryPath = ""
        var descriptor: Int32 = -1
        for _ in 0..<100 {
            temporaryPath = prefix + temporaryLetters(using: &generator)
            descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw Failure(step: .createTemporary, path: path, code: errno) }
        do throws(Failure) {
            try writeAll(data, to: descriptor, path: temporaryPath)
        } catch {
            abandon(descriptor, temporaryPath: temporaryPath)
            throw error
        }
        return try publish(
            descriptor, temporaryPath: temporaryPath, as: path, directory: directory, replacing: false,
            flushes: flushes)
    }

    /// Six letters or digits, as `mkstemp` puts in place of its `XXXXXX` (so leftovers look the same).
    private static func temporaryLetters(using generator: inout SystemRandomNumberGenerator) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        return String(
            decoding: (0..<6).map { _ in letters[Int(generator.next(upperBound: UInt64(letters.count)))] },
            as: UTF8.self)
    }
}
