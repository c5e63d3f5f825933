import Foundation

/// Where the public test corpora are, from the `PIXPIPE_CORPORA` environment variable.
///
/// Unset: corpus tests are skipped. Set to a missing folder: the presence test fails.
enum Corpora {
    /// The corpora folder named by `PIXPIPE_CORPORA`, or `nil` when the variable is unset or empty.
    static var directory: String? {
        guard let value = ProcessInfo.processInfo.environment["PIXPIPE_CORPORA"], !value.isEmpty else { return nil }
        return value
    }

    /// Whether corpus tests should run (the variable is set).
    static var isAvailable: Bool { directory != nil }

    /// A path inside the corpora folder; empty components are ignored.
    static func path(_ components: String...) -> String {
        var url = URL(fileURLWithPath: directory ?? "/nonexistent-corpora", isDirectory: true)
        for component in components where !component.isEmpty { url.appendPathComponent(component) }
        return url.path
    }

    /// The file names in a corpus folder matching `filter`, sorted; empty when the folder is missing.
    static func files(in folder: String, where filter: (String) -> Bool = { _ in true }) -> [String] {
        guard isAvailable, let names = try? FileManager.default.contentsOfDirectory(atPath: path(folder)) else {
            return []
        }
        return names.filter(filter).sorted()
    }
}
