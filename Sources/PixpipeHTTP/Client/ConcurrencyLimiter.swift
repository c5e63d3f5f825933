import PixpipeLocking

/// A first-in, first-out counting semaphore for async code: at most `limit` holders at a time.
///
/// The client queues requests here rather than inside URLSession, so time spent waiting for a slot never
/// counts against a request's timeout. A waiter cancelled while queued leaves the queue at once.
///
/// A lock rather than an actor: taking a free slot and giving one back are a few instructions that never
/// suspend, where an actor cost every request two hops onto the actor's executor (and, with 32 requests
/// contending, a queue and a thread wake-up), which showed in profiles of thousands of small requests.
final class ConcurrencyLimiter: Sendable {
    typealias Waiter = CheckedContinuation<Bool, Never>

    private struct State {
        var active = 0
        /// Queued waiters, oldest first from `head` on; the prefix before `head` is spent.
        var waiters: [(id: UInt64, continuation: Waiter)?] = []
        var head = 0
        var nextID: UInt64 = 0
        /// Waiters given an id but not queued yet, and whether their cancellation already ran (the
        /// handler can run before the continuation is queued).
        var notYetQueued: [UInt64: Bool] = [:]

        mutating func popOldest() -> Waiter? {
            while head < waiters.count {
                let entry = waiters[head]
                waiters[head] = nil
                head += 1
                if let entry { return entry.continuation }
            }
            return nil
        }

        mutating func compactIfSpent() {
            // Keeps the array from growing without bound as waiters come and go.
            if head == waiters.count {
                waiters.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 64, head * 2 > waiters.count {
                waiters.removeFirst(head)
                head = 0
            }
        }
    }

    private let limit: Int
    private let state = Locked(State())

    /// A limiter allowing `limit` (at least 1) concurrent holders.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// How many tasks wait for a slot now (for tests).
    var queuedWaiters: Int {
        state.withLock { state in state.waiters[state.head...].count { $0 != nil } + state.notYetQueued.count }
    }

    /// Waits for a slot. Returns `false` (holding nothing) when the calling task was cancelled first.
    func acquire() async -> Bool {
        if Task.isCancelled { return false }
        let queuedID: UInt64? = state.withLock { state in
            if state.active < limit {
                state.active += 1
                return nil
            }
            state.nextID += 1
            state.notYetQueued[state.nextID] = false
            return state.nextID
        }
        guard let id = queuedID else { return true }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Waiter) in
                let immediate: Bool? = state.withLock { state in
                    if state.notYetQueued.removeValue(forKey: id) == true { return false }
                    // A slot may have been given back between the first look and now.
                    if state.active < limit {
                        state.active += 1
                        return true
                    }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            cancelWaiter(id)
        }
    }

    /// Gives a slot back, handing it straight to the longest waiter if there is one.
    func release() {
        let next = state.withLock { state -> Waiter? in
            let oldest = state.popOldest()
            if oldest == nil { state.active -= 1 }
            state.compactIfSpent()
            return oldest
        }
        // Resumed outside the lock: resuming may run the waiter's code.
        next?.resume(returning: true)
    }

    private func cancelWaiter(_ id: UInt64) {
        let cancelled = state.withLock { state -> Waiter? in
            if state.notYetQueued[id] != nil {
                state.notYetQueued[id] = true
                return nil
            }
            // Not found: it was already given a slot, which it gives back as usual.
            guard let index = state.waiters[state.head...].firstIndex(where: { $0?.id == id }) else { return nil }
            let waiter = state.waiters[index]?.continuation
            state.waiters[index] = nil
            return waiter
        }
        cancelled?.resume(returning: false)
    }
}
