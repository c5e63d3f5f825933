import Foundation

extension AtomicFileWriter: DownloadFileWriting {
    /// Writes `data` as `name` in `directory` by this writer's ``AtomicFileWriter/method``, its failure
    /// reported as a ``DownloadError``.
    func write(_ data: Data, named name: String, in directory: URL, flushes: Bool) throws(DownloadError) {
        do throws(Failure) {
            // Joined as strings: `appendingPathComponent` on a file URL `stat`s the result to learn whether
            // it is a folder, one lookup per file of a name that does not exist yet.
            try Self.write(data, to: directory.path + "/" + name, flushes: flushes, method: method)
        } catch {
            throw DownloadError(error)
        }
    }
}

extension DownloadError {
    /// The failed step of an atomic write, as the ``write(path:operation:code:)`` that stops a batch.
    init(_ failure: AtomicFileWriter.Failure) {
        self = .write(path: failure.path, operation: failure.step.rawValue, code: failure.code)
    }
}

extension AtomicFileWriter {
    /// Writes `data` as the new file `name` in `directory`, never over anything already there (`false` then),
    /// by this writer's ``AtomicFileWriter/method``.
    func writeNew(_ data: Data, named name: String, in directory: URL, flushes: Bool) throws(DownloadError) -> Bool {
        do throws(Failure) {
            return try Self.writeNew(data, to: directory.path + "/" + name, flushes: flushes, method: method)
        } catch {
            throw DownloadError(error)
        }
    }
}
