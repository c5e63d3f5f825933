import Foundation

extension AtomicFileWriter: DownloadFileWriting {
    /// Writes `data` as `name` in `directory`, its failure reported as a ``DownloadError``.
    func write(_ data: Data, named name: String, in directory: URL, flushes: Bool) throws(DownloadError) {
        do throws(Failure) {
            try Self.write(data, to: directory.appendingPathComponent(name).path, flushes: flushes)
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
