import CPixpipeSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes files so their final name only ever shows complete bytes, even across a crash or power loss.
///
/// Where the folder's file system has unnamed files (Linux `O_TMPFILE`: ext4, XFS, Btrfs, tmpfs), the bytes
/// go to a file without a name, which is then linked under `NAME`: no temporary name, no rename, and the
/// mode is set by `open` (see `AtomicFileWriter+UnnamedFile.swift`). Elsewhere they go to
/// `.NAME.part-XXXXXX` in the same folder (same file system, so the rename is atomic; hidden, so no output
/// name clashes with it), renamed over `NAME`. Either way, with flushing, the file is flushed with `fsync`
/// before it gets its name and the folder after. On any failure nothing is left under a temporary name and
/// a replaced file is left untouched. Shared by the downloader, the disk cache, `Image.write(to:as:)` and the
/// CLI's `convert` and `thumbnail`; it lives in PixpipeImage, the lowest layer that writes files.
///
/// A writer of many files may leave the flushing to one ``synchronizeFileSystem(containing:)`` at the end
/// (`flushes: false`): each file still appears whole to every reader and across a killed process; only a
/// power failure before that sync can lose files, which the downloader detects by hash.
///
/// The one atomic writer of the package: the downloader stores through an instance (its
/// `DownloadFileWriting` conformance, the seam tests replace), the command line through the static
/// methods (see `AtomicFileWriter+Output.swift` there).
package struct AtomicFileWriter: Sendable {
    /// Which step of an atomic write failed, with the system error.
    package struct Failure: Error, Sendable, Hashable {
        /// The steps of an atomic write.
        package enum Step: String, Sendable, Hashable {
            /// Creating the temporary (or unnamed) file beside the destination.
            case createTemporary = "create a temporary file for"
            /// Writing the bytes.
            case write
            /// Flushing the temporary file.
            case fsync
            /// Renaming the temporary file over the destination (or linking the unnamed file there).
            case rename = "rename a temporary file to"
        }

        /// The step that failed.
        package var step: Step
        /// The destination (or, for `write` and `fsync` of a named temporary file, that file).
        package var path: String
        /// The `errno` value (`ENOSPC` when the disk is full).
        package var code: Int32
    }

    /// How a file gets its name.
    package enum Method: Sendable, Hashable {
        /// An unnamed file linked under its name where the folder's file system has them (decided once per
        /// folder), else ``temporaryName``.
        case automatic
        /// A hidden temporary name renamed over the destination: the fallback, forced by tests.
        case temporaryName
    }

    /// The marker in temporary names; a batch removes leftovers carrying it when it starts.
    package static let temporaryMarker = ".part-"

    /// How this writer names its files.
    package let method: Method

    /// A writer using `method`; the methods are the same as the static ones.
    package init(method: Method = .automatic) {
        self.method = method
    }

    /// Whether `fileName` is exactly a temporary name this writer makes: `.NAME.part-XXXXXX`, with a
    /// non-empty `NAME` and six ASCII letters or digits (as `mkstemp` and the unnamed-file path fill them).
    package static func isTemporary(_ fileName: String) -> Bool {
        let bytes = Array(fileName.utf8)
        let marker = Array(temporaryMarker.utf8)
        let suffixLength = 6
        // ".", at least one byte of NAME, the marker, the suffix.
        guard bytes.count >= 2 + marker.count + suffixLength, bytes[0] == UInt8(ascii: ".") else { return false }
        let suffixStart = bytes.count - suffixLength
        let markerStart = suffixStart - marker.count
        guard bytes[markerStart..<suffixStart].elementsEqual(marker) else { return false }
        return bytes[suffixStart...].allSatisfy { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
            default: false
            }
        }
    }

    /// Writes `data` to `path`, replacing any file there; with `flushes`, the bytes and the name are on the
    /// disk when it returns.
    ///
    /// With `permissions`, the file gets exactly that mode. Otherwise a new file gets `0666` less the umask,
    /// and a replaced regular file keeps its permission bits (`0o777`: never setuid, setgid or sticky); a
    /// symbolic link at `path` is replaced, not followed, and counts as no file.
    package static func write(
        _ data: Data, to path: String, flushes: Bool = true, method: Method = .automatic,
        permissions: mode_t? = nil
    ) throws(Failure) {
        // Plain string work: `URL(fileURLWithPath:)` and its path methods `stat` the names they are given.
        let directory = parentDirectory(of: path)
        if method == .automatic, UnnamedFileSupport.shared.isSupported(in: directory) {
            let result = try writeUnnamed(
                data, to: path, directory: directory, flushes: flushes, permissions: permissions)
            guard result == .unsupported else { return }
            UnnamedFileSupport.shared.markUnsupported(directory)
        }
        try writeRenamed(data, to: path, directory: directory, flushes: flushes, permissions: permissions)
    }

    /// Flushes every file of the file system holding `directory` (one `syncfs`): the batch form of the
    /// flush that ``write(_:to:flushes:method:)`` skips with `flushes: false`.
    package static func synchronizeFileSystem(containing directory: String) throws(Failure) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(step: .fsync, path: directory, code: errno) }
        defer { close(descriptor) }
        guard pxp_syncfs(descriptor) == 0 else { throw Failure(step: .fsync, path: directory, code: errno) }
    }

    /// Writes every byte to an open descriptor, resuming after short writes and interruptions.
    package static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(Failure) {
        let failure: Int32? = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw Failure(step: .write, path: path, code: failure) }
    }

    /// The fallback: `mkstemp` beside the destination, write, `fchmod`, then ``publish`` over it.
    private static func writeRenamed(
        _ data: Data, to path: String, directory: String, flushes: Bool, permissions: mode_t?
    ) throws(Failure) {
        let temporary = try makeTemporary(for: path, directory: directory)
        do throws(Failure) {
            try writeAll(data, to: temporary.descriptor, path: temporary.path)
        } catch {
            abandon(temporary.descriptor, temporaryPath: temporary.path)
            throw error
        }
        _ = fchmod(temporary.descriptor, permissions ?? keptPermissions(of: path) ?? 0o666 & ~processUmask)
        try publish(
            temporary.descriptor, temporaryPath: temporary.path, as: path, directory: directory, replacing: true,
            flushes: flushes)
    }

    /// The permission bits a file replacing `path` keeps: those of the regular file there, without setuid,
    /// setgid or sticky; `nil` when there is none. Read with `lstat`, so a symbolic link is never followed:
    /// a link to someone's setuid program must not lend its mode (a link's own `0777` is no file's mode).
    static func keptPermissions(of path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return status.st_mode & 0o777
    }

    /// The process umask, read once: it can only be read by setting it, which is safe only while no other
    /// thread creates files, so it is read on first use and never again (a `static let` is initialized
    /// exactly once, even under concurrent first use).
    static let processUmask: mode_t = {
        let mask = umask(0)
        umask(mask)
        return mask
    }()

    /// Flushes the folder's entries (the new name); a failure here loses nothing already visible, so it is
    /// ignored.
    static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// The folder part of `path` (`.` for a bare name), as `dirname` gives it.
    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of `path`.
    static func fileName(of path: String) -> Substring {
        guard let slash = path.lastIndex(of: "/") else { return Substring(path) }
        return path[path.index(after: slash)...]
    }
}

/// The C `write`, reachable where a method of the same name hides it.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
