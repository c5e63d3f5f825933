import PixpipeLocking

/// A clock that moves only when a test says so.
final class TestClock: Sendable {
    private let instant = Locked(ContinuousClock.now)

    /// The current instant.
    var now: ContinuousClock.Instant { instant.withLock { $0 } }

    /// Moves the clock forward.
    func advance(by duration: Duration) {
        instant.withLock { $0 += duration }
    }
}
