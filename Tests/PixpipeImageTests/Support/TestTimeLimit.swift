import Foundation
import PixpipeTestSupport
import Testing

/// Time bounds of the bomb tests: CPU time for the work itself, a far larger wall-clock bound for hangs
/// (see ``CPUStopwatch`` for why).
enum TestTimeLimit {
    /// Whether tests run under a sanitizer (`scripts/test --sanitize` sets `PIXPIPE_SANITIZER`), whose
    /// instrumented code is several times slower.
    static let isSanitized = ProcessInfo.processInfo.environment["PIXPIPE_SANITIZER"] != nil

    /// How much CPU time refusing a bomb from its header may take: a second, relaxed under a sanitizer.
    static let refusal: Duration = isSanitized ? .seconds(20) : .seconds(1)

    /// How long the same refusal may take on the wall clock: only a hang or a wait takes this long.
    static let hang: Duration = isSanitized ? .seconds(120) : .seconds(15)

    /// Runs `work` and returns the CPU time the calling thread spent in it; records an issue when its wall
    /// time reaches ``hang``.
    static func cpuTime(
        sourceLocation: SourceLocation = #_sourceLocation, _ work: () throws -> Void
    ) rethrows -> Duration {
        let stopwatch = CPUStopwatch()
        try work()
        return checkedCPUTime(of: stopwatch, sourceLocation: sourceLocation)
    }

    /// `stopwatch`'s CPU time; records an issue when its wall time reached ``hang``.
    static func checkedCPUTime(of stopwatch: CPUStopwatch, sourceLocation: SourceLocation = #_sourceLocation)
        -> Duration
    {
        let cpu = stopwatch.cpuTime
        let wall = stopwatch.wallTime
        #expect(wall < hang, "the work took \(wall) of wall time", sourceLocation: sourceLocation)
        return cpu
    }
}
