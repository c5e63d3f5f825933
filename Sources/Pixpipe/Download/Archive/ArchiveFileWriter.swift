import CLibArchive
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
    private var archive: OpaquePointer?
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
        temporaryPath = String(cString: template)
        let archive = archive_write_new()
        self.archive = archive
        let formatResult: Int32
        switch format {
        case .tar:
            formatResult = archive_write_set_format_pax_restricted(archive)
        case .zipStored:
            formatResult = archive_write_set_format_zip(archive) == ARCHIVE_OK
                ? archive_write_zip_set_compression_store(archive) : ARCHIVE_FATAL
        }
        guard formatResult == ARCHIVE_OK, archive_write_open_fd(archive, descriptor) == ARCHIVE_OK else {
            let failure = archiveFailure(operation: "start the archive")
            discard()
            throw failure
        }
    }

    deinit {
        if !finished { discard() }
    }

    /// Adds a regular file `name` holding `bytes`, with modification time `modified` (seconds since 1970).
    func add(name: String, bytes: Data, modified: Int = 0) throws(DownloadError) {
        guard let archive else { throw .write(path: path, operation: "write", code: EBADF) }
        let entry = archive_entry_new()
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, name)
        archive_entry_set_size(entry, la_int64_t(bytes.count))
        archive_entry_set_filetype(entry, 0o100_000)  // AE_IFREG, a macro Swift does not import
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_mtime(entry, time_t(modified), 0)
        guard archive_write_header(archive, entry) == ARCHIVE_OK else {
            throw archiveFailure(operation: "write the entry \(name) of")
        }
        let written = bytes.withUnsafeBytes { buffer -> Int in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
            return Int(archive_write_data(archive, base, buffer.count))
        }
        guard written == bytes.count else { throw archiveFailure(operation: "write the entry \(name) of") }
    }

    /// Ends the archive, flushes it, and gives it its name (replacing any file there), then flushes the folder.
    func finish() throws(DownloadError) {
        guard let archive else { throw .write(path: path, operation: "write", code: EBADF) }
        guard archive_write_close(archive) == ARCHIVE_OK else {
            let failure = archiveFailure(operation: "end the archive")
            discard()
            throw failure
        }
        archive_write_free(archive)
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
            archive_write_free(archive)
            self.archive = nil
            // archive_write_free closes nothing it did not open: the descriptor is still ours.
        }
        if !finished {
            close(descriptor)
            unlink(temporaryPath)
            finished = true
        }
    }

    /// The write error libarchive reports for the current step, with its `errno` (`EIO` when it has none).
    private func archiveFailure(operation: String) -> DownloadError {
        let code = archive.map { archive_errno($0) } ?? 0
        return .write(path: path, operation: operation, code: code > 0 ? code : EIO)
    }
}
