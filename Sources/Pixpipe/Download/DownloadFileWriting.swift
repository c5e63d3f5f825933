import Foundation

/// Stores a finished file in the output folder; the seam through which tests simulate a full disk.
protocol DownloadFileWriting: Sendable {
    /// Writes `data` as `name` inside `directory` so that the name only ever shows complete bytes; with
    /// `flushes`, the file is on the disk when it returns.
    func write(_ data: Data, named name: String, in directory: URL, flushes: Bool) throws(DownloadError)
}
