import PixpipeLocking

/// Live counts of what a ``CurlMultiEngine`` holds, readable from any thread; tests use them to prove nothing leaks.
final class CurlEngineCounters: Sendable {
    /// One consistent reading of the counters.
    struct Snapshot: Sendable, Hashable {
        /// Transfers whose easy handle is in the multi handle.
        var activeTransfers = 0
        /// Easy handles allocated and not yet freed (active plus pooled).
        var liveEasyHandles = 0
        /// Idle easy handles kept for reuse.
        var pooledEasyHandles = 0
        /// Sockets libcurl opened through the engine and has not closed.
        var openSockets = 0
        /// Sockets libcurl opened through the engine since it started: the connections it made.
        var socketsOpenedInTotal = 0
        /// Whether the engine thread is running.
        var threadRunning = false
        /// Transfers finished in any way since the engine started.
        var finishedTransfers = 0
    }

    private let state = Locked(Snapshot())

    /// Zeroed counters.
    init() {}

    /// The current values.
    var snapshot: Snapshot { state.withLock { $0 } }

    /// Applies a change on the engine thread.
    func update(_ change: (inout Snapshot) -> Void) {
        state.withLock { change(&$0) }
    }

    /// Counts a socket libcurl opened.
    func socketOpened() {
        state.withLock {
            $0.openSockets += 1
            $0.socketsOpenedInTotal += 1
        }
    }

    /// Counts a socket libcurl closed.
    func socketClosed() { state.withLock { $0.openSockets -= 1 } }
}
