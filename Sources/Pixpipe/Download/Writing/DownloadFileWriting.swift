import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Stores a finished file in the output folder; the seam through which tests simulate a full disk.
protocol DownloadFileWriting: Sendable {
    /// Writes `data` as `name` inside `directory` so that the name only ever shows complete bytes; with
    /// `flushes`, the file is on the disk when it returns.
    func write(_ data: Data, named name: String, in directory: URL, flushes: Bool) throws(DownloadError)

    /// Writes `data` as `name` inside `directory` as ``write(_:named:in:flushes:)`` does, unless something
    /// already has that name: then `false`, and nothing is changed.
    func writeNew(_ data: Data, named name: String, in directory: URL, flushes: Bool) throws(DownloadError) -> Bool
}

extension DownloadFileWriting {
    /// A look, then ``write(_:named:in:flushes:)``: enough for the test writers, which never race; the
    /// real writer names the file and checks in one system call (``AtomicFileWriter/writeNew(_:to:flushes:method:)``).
    func writeNew(_ data: Data, named name: String, in directory: URL, flushes: Bool) throws(DownloadError) -> Bool {
        var status = stat()
        if lstat(directory.path + "/" + name, &status) == 0 { return false }
        try write(data, named: name, in: directory, flushes: flushes)
        return true
    }
}
