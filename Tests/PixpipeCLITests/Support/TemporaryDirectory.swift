import Foundation

/// A fresh directory under the system's temporary directory, removed when the value is released.
final class TemporaryDirectory {
    /// The directory.
    let url: URL

    /// Creates the directory.
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pixpipe-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `data` to `name` inside the directory and returns its path.
    @discardableResult
    func write(_ data: Data, to name: String) throws -> String {
        try data.write(to: url.appendingPathComponent(name))
        return path(name)
    }

    /// The names of the files in the directory, sorted (hidden ones included).
    func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}
