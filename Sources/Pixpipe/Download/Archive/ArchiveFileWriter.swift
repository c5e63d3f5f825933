import CPixpipeArchive
import Foundation
import PixpipeImage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes one archive (a tar or a zip) through libarchive, whole or not at all: the entries go to a hidden
/// temporary file beside the destination (`.NAME.part-XXXXXX`, the name a batch's leftover sweep knows),
/// which is flushed and then renamed over `NAME`, and the folder flushed after. A process killed while
/// writing leaves no file under `NAME`, only the temporary one, removed by the next run.
///
/// Not `Sendable`: one task adds the entries of one archive, in order.
final class ArchiveFileWriter {
    /// The archive formats written.
    enum Format {
        /// POSIX tar (pax where a name or size needs it, plain ustar otherwise), as WebDataset reads.
        case tar
        /// Zip with the entries stored as they are (images are compressed already), as comic readers read.
        case zipStored
    }

    /// The destination.
    let path: String
    private let temporaryPath: String
    private let descriptor: Int32
    private var archive: UnsafeMutableRawPointer?
    private var finished = false

    /// Opens a temporary file beside `path` and starts an archive of `format` in it.
    init(path: String, format: Format) throws(DownloadError) {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var template = Array("\(directory)/.\(name)\(AtomicFileWriter.temporaryMarker)XXXXXX".utf8CString)
        let opened = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard opened >= 0 else { throw .write(path: path, operation: "create a temporary file for", code: errno) }
        descriptor = opened
        temporaryPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        archive = pxp_archive_writer_open(descriptor, format == .zipStored ? 1 : 0)
        guard archive != nil else {
            // libarchive missing (see `pxp_archive_load_error`) or refusing the format: no library to ask why.
            discard()
            throw .write(path: path, operation: "start the archive (libarchive) of", code: ENOSYS)
        }
    }

    deinit {
        if !finished { discard() }
    }

    /// Adds a regular file `name` holding `bytes`, with modification time `modified` (seconds since 1970).
    func add(name: String, bytes: Data, modified: Int = 0) throws(DownloadError) {
        guard let archive else { throw .write(path: path, operation: "write", code: EBADF) }
        let result = bytes.withUnsafeBytes { buffer in
            pxp_archive_writer_add(archive, name, buffer.baseAddress, buffer.count, Int64(modified))
        }
        guard result == 0 else { throw archiveFailure(operation: "write the entry \(name) of") }
    }

    /// Ends the archive, flushes it, and gives it its name (replacing any file there), then flushes the folder.
    func finish() throws(DownloadError) {
        guard let archive else { throw .write(path: path, operation: "write", code: EBADF) }
        guard pxp_archive_writer_close(archive) == 0 else {
            let failure = archiveFailure(operation: "end the archive")
            discard()
            throw failure
        }
        pxp_archive_writer_free(archive)
        self.archive = nil
        guard fsync(descriptor) == 0 else {
            let code = errno
            discard()
            throw .write(path: temporaryPath, operation: "fsync", code: code)
        }
        close(descriptor)
        guard rename(temporaryPath, path) == 0 else {
            let code = errno
            unlink(temporaryPath)
            finished = true
            throw .write(path: path, operation: "rename a temporary file to", code: code)
        }
        finished = true
        let folder = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Drops the archive and its temporary file.
    private func discard() {
        if let archive {
            pxp_archive_writer_free(archive)
            self.archive = nil
            // libarchive closes nothing it did not open: the descriptor is still ours.
        }
        if !finished {
            close(descriptor)
            unlink(temporaryPath)
            finished = true
        }
    }

    /// The write error libarchive reports for the current step, with its `errno` (`EIO` when it has none).
    private func archiveFailure(operation: String) -> DownloadError {
        let code = pxp_archive_errno(archive)
        return .write(path: path, operation: operation, code: code > 0 ? code : EIO)
    }
}
