extension ConcurrencyLimiter {
    /// Takes the next place in the queue for `key` now, from synchronous code; a task claims it later with
    /// ``SlotReservation/claim()``. A reservation dropped unclaimed gives its place or its slot back.
    package func reserve(key: String = "") -> SlotReservation {
        let (limit, perKeyLimit) = (self.limit, self.perKeyLimit)
        let id: UInt64 = state.withLock { state in
            state.nextID += 1
            let id = state.nextID
            if state.queuedByKey[key] == nil, state.canGrant(key, limit: limit, perKeyLimit: perKeyLimit) {
                state.grant(key)
                state.reservations[id] = .granted
            } else {
                state.waiters.append(Waiter(id: id, key: key, continuation: nil))
                state.queuedByKey[key, default: 0] += 1
                state.reservations[id] = .queued
            }
            return id
        }
        return SlotReservation(limiter: self, id: id, key: key)
    }

    /// Waits for the slot `reservation` holds the place of; `false` (holding nothing) when the calling task
    /// is cancelled before the slot is its own.
    func claim(_ reservation: SlotReservation) async -> Bool {
        let id = reservation.id
        if Task.isCancelled {
            abandon(reservation)
            return false
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Continuation) in
                let immediate: Bool? = state.withLock { state in
                    switch state.reservations.removeValue(forKey: id) {
                    case .granted: return true
                    case .cancelled: return false
                    case .queued:
                        // A queued reservation stays in the queue until granted or cancelled, both under this lock.
                        guard let index = state.waiters[state.head...].firstIndex(where: { $0?.id == id }) else {
                            preconditionFailure("a queued slot reservation is missing from the queue")
                        }
                        state.waiters[index]?.continuation = continuation
                        return nil
                    case nil: preconditionFailure("a slot reservation is claimed once")
                    }
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            cancelWaiter(id)
        }
    }

    /// Gives back what an unclaimed `reservation` holds: its place in the queue, or its slot.
    func abandon(_ reservation: SlotReservation) {
        let wasGranted = state.withLock { state -> Bool in
            switch state.reservations.removeValue(forKey: reservation.id) {
            case .granted: return true
            case .queued:
                if let index = state.waiters[state.head...].firstIndex(where: { $0?.id == reservation.id }) {
                    _ = state.unqueue(at: index)
                    state.compact()
                }
                return false
            case .cancelled, nil: return false
            }
        }
        if wasGranted { release(key: reservation.key) }
    }
}

/// A place in a ``ConcurrencyLimiter``'s queue, taken in order by synchronous code and claimed by the task
/// it was taken for.
///
/// Why: tasks added to a group in order do not run in order (on a busy machine a later one often reaches
/// the limiter first), so a downloader's first item could wait behind later ones. Dropped unclaimed (its
/// task cancelled before it asked), it gives its place or its slot back.
package final class SlotReservation: Sendable {
    let limiter: ConcurrencyLimiter
    let id: UInt64
    /// The key the slot counts against.
    package let key: String

    init(limiter: ConcurrencyLimiter, id: UInt64, key: String) {
        self.limiter = limiter
        self.id = id
        self.key = key
    }

    /// Waits for the reserved slot; `false` (holding nothing) when the task is cancelled first. Call it once;
    /// give the slot back with ``ConcurrencyLimiter/release(key:)``.
    package func claim() async -> Bool {
        await limiter.claim(self)
    }

    /// Runs `body` holding the reserved slot; `nil` when cancelled while waiting.
    package func withSlot<T: Sendable>(_ body: () async -> T) async -> T? {
        guard await claim() else { return nil }
        let result = await body()
        limiter.release(key: key)
        return result
    }

    deinit {
        // A no-op once claimed: the claim removed the reservation's entry.
        limiter.abandon(self)
    }
}
