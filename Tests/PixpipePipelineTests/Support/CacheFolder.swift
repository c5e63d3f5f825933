import Foundation

/// A fresh folder for a disk cache, removed when the value is released.
final class CacheFolder {
    /// The folder (not created: the cache creates it).
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pixpipe-cache-tests-\(UUID().uuidString)")
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The names of the files inside, sorted.
    func fileNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    /// The total size of the files inside.
    func totalSize() -> Int {
        fileNames().reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(name).path)
            return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }
}
