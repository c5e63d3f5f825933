/// A first-in, first-out counting semaphore for async code: at most `limit` holders at a time.
///
/// The client queues requests here rather than inside URLSession, so time spent waiting for a slot never
/// counts against a request's timeout. A waiter cancelled while queued leaves the queue at once.
actor ConcurrencyLimiter {
    private let limit: Int
    private var active = 0
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID: UInt64 = 0

    /// A limiter allowing `limit` (at least 1) concurrent holders.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Waits for a slot. Returns `false` (holding nothing) when the calling task was cancelled first.
    func acquire() async -> Bool {
        if Task.isCancelled { return false }
        if active < limit {
            active += 1
            return true
        }
        nextID += 1
        let id = nextID
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters.append((id, continuation))
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    /// Gives a slot back, handing it straight to the longest waiter if there is one.
    func release() {
        if waiters.isEmpty {
            active -= 1
        } else {
            waiters.removeFirst().continuation.resume(returning: true)
        }
    }

    private func cancelWaiter(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(returning: false)
    }

}
