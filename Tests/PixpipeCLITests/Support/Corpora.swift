import Foundation

/// The shared test corpora, found through `PIXPIPE_CORPORA`; tests using them are skipped when it is unset.
enum Corpora {
    /// The corpora directory, when `PIXPIPE_CORPORA` is set.
    static let root: URL? = ProcessInfo.processInfo.environment["PIXPIPE_CORPORA"].map { URL(fileURLWithPath: $0) }

    /// Whether `PIXPIPE_CORPORA` is set (a set but missing folder makes the tests fail, not skip).
    static var isAvailable: Bool { root != nil }

    /// The path of `relativePath` inside the corpora.
    static func path(_ relativePath: String) -> String {
        (root ?? URL(fileURLWithPath: "/PIXPIPE_CORPORA-unset")).appendingPathComponent(relativePath).path
    }
}
