import Foundation

/// The downloader's file writer: ``AtomicFile`` with its failures reported as ``DownloadError``.
struct AtomicFileWriter: DownloadFileWriting {
    /// Whether `fileName` is a temporary file left by an atomic write (removed when a batch starts).
    static func isTemporary(_ fileName: String) -> Bool { AtomicFile.isTemporary(fileName) }

    func write(_ data: Data, named name: String, in directory: URL, flushes: Bool) throws(DownloadError) {
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(data, to: directory.appendingPathComponent(name).path, flushes: flushes)
        } catch {
            throw Self.downloadError(error)
        }
    }

    /// Flushes the file system holding `directory`, for ``FileSync/atEnd``.
    static func synchronizeFileSystem(containing directory: URL) throws(DownloadError) {
        do throws(AtomicFile.Failure) {
            try AtomicFile.synchronizeFileSystem(containing: directory.path)
        } catch {
            throw downloadError(error)
        }
    }

    /// Appends `data` to an open descriptor (the manifest), as a ``DownloadError`` on failure.
    static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(DownloadError) {
        do throws(AtomicFile.Failure) {
            try AtomicFile.writeAll(data, to: descriptor, path: path)
        } catch {
            throw downloadError(error)
        }
    }

    private static func downloadError(_ failure: AtomicFile.Failure) -> DownloadError {
        .write(path: failure.path, operation: failure.step.rawValue, code: failure.code)
    }
}
