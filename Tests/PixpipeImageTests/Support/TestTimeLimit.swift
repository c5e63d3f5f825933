import Foundation

/// Time bounds of the bomb tests.
enum TestTimeLimit {
    /// How long refusing a bomb from its header may take: a second, relaxed under a sanitizer
    /// (`scripts/test --sanitize` sets `PIXPIPE_SANITIZER`), whose instrumented code is several times slower.
    static let refusal: Duration =
        ProcessInfo.processInfo.environment["PIXPIPE_SANITIZER"] == nil ? .seconds(1) : .seconds(20)
}
