/// A first-come, first-served counting semaphore for async code: at most `limit` holders at a time, and at
/// most `perKeyLimit` of them with one key (a host).
///
/// The HTTP client queues requests here (one key) rather than inside URLSession, and the downloader queues
/// transfers (keyed `host:port`) and processing: time spent waiting for a slot never counts against a
/// timeout. A waiter whose key is at its limit does not hold up waiters with other keys. A waiter cancelled
/// while queued leaves the queue at once, holding nothing.
///
/// A caller that starts tasks in an order it wants kept takes a place for each with ``reserve(key:)``
/// before the task starts, and the task claims it (see ``SlotReservation``): slots then go in the order of
/// the reservations, not in the order the tasks happen to run.
///
/// A lock rather than an actor: taking a free slot and giving one back are a few instructions that never
/// suspend, where an actor cost every request two hops onto the actor's executor (and, with 32 requests
/// contending, a queue and a thread wake-up), which showed in profiles of thousands of small requests.
package final class ConcurrencyLimiter: Sendable {
    typealias Continuation = CheckedContinuation<Bool, Never>

    struct Waiter {
        let id: UInt64
        let key: String
        /// `nil` for a reservation whose task has not claimed it yet: when its turn comes the slot is kept
        /// for it (``State/reservations``) instead of resuming anyone.
        var continuation: Continuation?
    }

    /// Where a reservation is while its task has not claimed it (it has no entry once claimed).
    enum ReservationState {
        /// In the queue of waiters.
        case queued
        /// Given a slot, which the claim takes (or the abandoned reservation gives back).
        case granted
        /// Cancelled while queued, before its task waited: the claim returns `false`.
        case cancelled
    }

    struct State {
        var active = 0
        var activeByKey: [String: Int] = [:]
        /// Queued waiters, oldest first from `head` on; the prefix before `head` is spent, and a woken or
        /// cancelled waiter leaves a hole.
        var waiters: [Waiter?] = []
        var head = 0
        /// How many queued waiters each key has (a new asker with queued elders of its key queues behind them).
        var queuedByKey: [String: Int] = [:]
        var nextID: UInt64 = 0
        /// Waiters given an id but not queued yet, and whether their cancellation already ran (the handler
        /// can run before the continuation is queued).
        var notYetQueued: [UInt64: Bool] = [:]
        /// Reservations not claimed yet.
        var reservations: [UInt64: ReservationState] = [:]

        func canGrant(_ key: String, limit: Int, perKeyLimit: Int) -> Bool {
            active < limit && activeByKey[key, default: 0] < perKeyLimit
        }

        mutating func grant(_ key: String) {
            active += 1
            activeByKey[key, default: 0] += 1
        }

        mutating func unqueue(at index: Int) -> Waiter? {
            guard let waiter = waiters[index] else { return nil }
            waiters[index] = nil
            queuedByKey[waiter.key, default: 1] -= 1
            if queuedByKey[waiter.key] == 0 { queuedByKey[waiter.key] = nil }
            return waiter
        }

        mutating func compact() {
            while head < waiters.count, waiters[head] == nil { head += 1 }
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

    // Internal (not private) for the reservations in ConcurrencyLimiter+Reservation.swift.
    let limit: Int
    let perKeyLimit: Int
    let state = Locked(State())

    /// A limiter allowing `limit` concurrent holders in all and `perKeyLimit` (by default `limit`) per key,
    /// both at least 1.
    package init(limit: Int, perKeyLimit: Int? = nil) {
        self.limit = max(1, limit)
        self.perKeyLimit = max(1, perKeyLimit ?? limit)
    }

    /// How many tasks wait for a slot now (for tests).
    package var queuedWaiters: Int {
        state.withLock { state in state.waiters[state.head...].count { $0 != nil } + state.notYetQueued.count }
    }

    /// Waits for a slot for `key`. Returns `false` (holding nothing) when the calling task was cancelled first.
    package func acquire(key: String = "") async -> Bool {
        if Task.isCancelled { return false }
        let (limit, perKeyLimit) = (self.limit, self.perKeyLimit)
        let queuedID: UInt64? = state.withLock { state in
            if state.queuedByKey[key] == nil, state.canGrant(key, limit: limit, perKeyLimit: perKeyLimit) {
                state.grant(key)
                return nil
            }
            state.nextID += 1
            state.notYetQueued[state.nextID] = false
            return state.nextID
        }
        guard let id = queuedID else { return true }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Continuation) in
                let immediate: Bool? = state.withLock { state in
                    if state.notYetQueued.removeValue(forKey: id) == true { return false }
                    // A slot may have been given back between the first look and now.
                    if state.queuedByKey[key] == nil, state.canGrant(key, limit: limit, perKeyLimit: perKeyLimit) {
                        state.grant(key)
                        return true
                    }
                    state.waiters.append(Waiter(id: id, key: key, continuation: continuation))
                    state.queuedByKey[key, default: 0] += 1
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            cancelWaiter(id)
        }
    }

    /// Gives a slot for `key` back and hands the freed room to the oldest waiters that can now go.
    package func release(key: String = "") {
        let (limit, perKeyLimit) = (self.limit, self.perKeyLimit)
        let woken: [Waiter] = state.withLock { state in
            state.active -= 1
            state.activeByKey[key, default: 1] -= 1
            if state.activeByKey[key] == 0 { state.activeByKey[key] = nil }
            var woken: [Waiter] = []
            // Keys found at their own limit in this pass: every later waiter with such a key is refused too
            // (grants only raise the counts), so once every queued key is here the rest of the queue is not
            // read. Without it, one host's waiters behind its per-host limit were all read on every release
            // (about 24,000 instructions an item with 32 waiting for `--per-host 8`).
            var blockedKeys: Set<String> = []
            var index = state.head
            while index < state.waiters.count, state.active < limit, blockedKeys.count < state.queuedByKey.count {
                if let waiter = state.waiters[index], !blockedKeys.contains(waiter.key) {
                    if state.canGrant(waiter.key, limit: limit, perKeyLimit: perKeyLimit) {
                        state.grant(waiter.key)
                        if let waiter = state.unqueue(at: index) {
                            if waiter.continuation == nil {
                                state.reservations[waiter.id] = .granted
                            } else {
                                woken.append(waiter)
                            }
                        }
                    } else {
                        blockedKeys.insert(waiter.key)
                    }
                }
                index += 1
            }
            state.compact()
            return woken
        }
        // Resumed outside the lock: resuming may run the waiter's code.
        for waiter in woken { waiter.continuation?.resume(returning: true) }
    }

    /// Runs `body` holding a slot for `key`; `nil` when cancelled while waiting.
    package func withSlot<T: Sendable>(key: String = "", _ body: () async -> T) async -> T? {
        guard await acquire(key: key) else { return nil }
        let result = await body()
        release(key: key)
        return result
    }

    /// Takes waiter `id` out of the queue when its task is cancelled, resuming it with `false`; nothing when
    /// it already holds a slot.
    func cancelWaiter(_ id: UInt64) {
        let cancelled = state.withLock { state -> Waiter? in
            if state.notYetQueued[id] != nil {
                state.notYetQueued[id] = true
                return nil
            }
            // Not found: it was already given a slot, which it gives back as usual.
            guard let index = state.waiters[state.head...].firstIndex(where: { $0?.id == id }) else { return nil }
            let waiter = state.unqueue(at: index)
            state.compact()
            // A reservation cancelled before its task waited: the claim finds out here.
            if waiter?.continuation == nil { state.reservations[id] = .cancelled }
            return waiter
        }
        cancelled?.continuation?.resume(returning: false)
    }
}
