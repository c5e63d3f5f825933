import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calling thread's CPU time and the wall clock, both started when it is made.
///
/// Bomb tests bound a refusal by the CPU time of the thread doing it, not by the wall clock: on a loaded
/// machine (two cores shared with builds) a refusal of 0.5 s of CPU took 1.7 s of wall time, so a wall-clock
/// bound failed for reasons outside the code. The wall clock still catches work that waits instead of
/// computing, under a far larger bound. Only meaningful for synchronous work on one thread.
public struct CPUStopwatch: Sendable {
    private let wallStart = ContinuousClock.now
    private let cpuStart = CPUStopwatch.threadCPUTime()

    /// Starts both clocks now.
    public init() {}

    /// The thread's CPU time since the start.
    public var cpuTime: Duration { Self.threadCPUTime() - cpuStart }

    /// The wall-clock time since the start.
    public var wallTime: Duration { .now - wallStart }

    /// The calling thread's CPU time so far.
    public static func threadCPUTime() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }
}
