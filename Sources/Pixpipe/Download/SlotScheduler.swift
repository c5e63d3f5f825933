import Foundation
import PixpipeLocking

/// Hands out slots under a global limit and a per-key limit (per host), first come first served.
///
/// A waiter whose key is at its limit does not hold up waiters for other keys. Waiting happens here, before
/// a transfer starts, so time spent queued never counts against a timeout. Cancelling a waiting task makes
/// ``acquire(key:)`` return `false` at once.
final class SlotScheduler: Sendable {
    private struct Waiter {
        let id: UInt64
        let key: String
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var inUse = 0
        var inUseByKey: [String: Int] = [:]
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
        /// Waiters cancelled before they were queued.
        var cancelledEarly: Set<UInt64> = []
    }

    private let globalLimit: Int
    private let perKeyLimit: Int
    private let state = Locked(State())

    /// A scheduler allowing `globalLimit` slots in all and `perKeyLimit` per key (both at least 1).
    init(globalLimit: Int, perKeyLimit: Int) {
        self.globalLimit = max(1, globalLimit)
        self.perKeyLimit = max(1, perKeyLimit)
    }

    /// Waits for a slot for `key`; `false` when the task was cancelled (then no slot is held).
    func acquire(key: String) async -> Bool {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let granted: Bool? = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return false }
                    if state.waiters.isEmpty || !state.waiters.contains(where: { $0.key == key }),
                        canGrant(key, in: state)
                    {
                        grant(key, in: &state)
                        return true
                    }
                    state.waiters.append(Waiter(id: id, key: key, continuation: continuation))
                    return nil
                }
                if let granted { continuation.resume(returning: granted) }
            }
        } onCancel: {
            let removed: Waiter? = state.withLock { state in
                guard let position = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return state.waiters.remove(at: position)
            }
            removed?.continuation.resume(returning: false)
        }
    }

    /// Gives back a slot for `key` and wakes the first waiters that can now go.
    func release(key: String) {
        let woken: [Waiter] = state.withLock { state in
            state.inUse -= 1
            state.inUseByKey[key, default: 1] -= 1
            if state.inUseByKey[key] == 0 { state.inUseByKey[key] = nil }
            var woken: [Waiter] = []
            var position = 0
            while position < state.waiters.count, state.inUse < globalLimit {
                let waiter = state.waiters[position]
                if canGrant(waiter.key, in: state) {
                    grant(waiter.key, in: &state)
                    woken.append(state.waiters.remove(at: position))
                } else {
                    position += 1
                }
            }
            return woken
        }
        for waiter in woken { waiter.continuation.resume(returning: true) }
    }

    /// Runs `body` holding a slot for `key`; `nil` when cancelled while waiting.
    func withSlot<T: Sendable>(key: String, _ body: () async -> T) async -> T? {
        guard await acquire(key: key) else { return nil }
        let result = await body()
        release(key: key)
        return result
    }

    private func canGrant(_ key: String, in state: State) -> Bool {
        state.inUse < globalLimit && state.inUseByKey[key, default: 0] < perKeyLimit
    }

    private func grant(_ key: String, in state: inout State) {
        state.inUse += 1
        state.inUseByKey[key, default: 0] += 1
    }
}
