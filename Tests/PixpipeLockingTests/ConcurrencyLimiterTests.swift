import Testing

@testable import PixpipeLocking

/// The client's queue of requests waiting for a slot: a bound that holds under contention, first come
/// first served, and cancellation that leaves the queue without taking or losing a slot.
@Suite("Concurrency limiter")
struct ConcurrencyLimiterTests {
    /// Waits until `limiter` has `count` queued waiters (they queue from other tasks).
    private func waitForQueue(_ limiter: ConcurrencyLimiter, count: Int) async {
        for _ in 0..<2_000 where limiter.queuedWaiters < count { try? await Task.sleep(for: .milliseconds(1)) }
    }

    @Test func neverLetsMoreThanTheLimitHoldASlot() async {
        let limiter = ConcurrencyLimiter(limit: 3)
        let holders = Locked((now: 0, most: 0))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    guard await limiter.acquire() else { return }
                    holders.withLock {
                        $0.now += 1
                        $0.most = max($0.most, $0.now)
                    }
                    // Held long enough that the others pile up behind the bound.
                    try? await Task.sleep(for: .milliseconds(1))
                    holders.withLock { $0.now -= 1 }
                    limiter.release()
                }
            }
        }
        #expect(holders.withLock { $0.most } == 3)
        #expect(holders.withLock { $0.now } == 0)
        #expect(limiter.queuedWaiters == 0)
    }

    @Test func waitersGetSlotsInTheOrderTheyAsked() async {
        let limiter = ConcurrencyLimiter(limit: 1)
        #expect(await limiter.acquire())
        let order = Locked<[Int]>([])
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<5 {
                group.addTask {
                    guard await limiter.acquire() else { return }
                    order.withLock { $0.append(index) }
                    limiter.release()
                }
                await waitForQueue(limiter, count: index + 1)
            }
            limiter.release()
        }
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
    }

    @Test func aCancelledWaiterLeavesAtOnceWithoutTakingASlot() async {
        let limiter = ConcurrencyLimiter(limit: 1)
        #expect(await limiter.acquire())
        let waiter = Task { await limiter.acquire() }
        await waitForQueue(limiter, count: 1)
        waiter.cancel()
        #expect(await waiter.value == false)
        #expect(limiter.queuedWaiters == 0)
        // The slot is still the first holder's: the next asker waits until it is given back.
        let next = Task { await limiter.acquire() }
        await waitForQueue(limiter, count: 1)
        limiter.release()
        #expect(await next.value)
        limiter.release()
        #expect(await limiter.acquire())
    }

    @Test func aTaskCancelledBeforeAskingGetsNothing() async {
        let limiter = ConcurrencyLimiter(limit: 1)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await limiter.acquire()
        }
        #expect(await task.value == false)
        #expect(await limiter.acquire())
    }

    @Test func aKeyAtItsLimitDoesNotHoldUpOtherKeys() async {
        let limiter = ConcurrencyLimiter(limit: 2, perKeyLimit: 1)
        #expect(await limiter.acquire(key: "a"))
        let secondA = Task { await limiter.acquire(key: "a") }
        await waitForQueue(limiter, count: 1)
        // The queued "a" waits for its key, not for the global limit: "b" goes first.
        #expect(await limiter.acquire(key: "b"))
        limiter.release(key: "a")
        #expect(await secondA.value)
        #expect(limiter.queuedWaiters == 0)
        limiter.release(key: "a")
        limiter.release(key: "b")
    }

    @Test func aReleaseReachesWaitersQueuedBehindKeysAtTheirLimit() async {
        let limiter = ConcurrencyLimiter(limit: 3, perKeyLimit: 1)
        for key in ["a", "b", "c"] { #expect(await limiter.acquire(key: key)) }
        // All three slots are taken: these queue, "a" and "b" behind their keys as well, "d" only for room.
        let secondA = Task { await limiter.acquire(key: "a") }
        await waitForQueue(limiter, count: 1)
        let secondB = Task { await limiter.acquire(key: "b") }
        await waitForQueue(limiter, count: 2)
        let firstD = Task { await limiter.acquire(key: "d") }
        await waitForQueue(limiter, count: 3)
        // The freed slot goes past the two waiters whose keys are still at their limit.
        limiter.release(key: "c")
        #expect(await firstD.value)
        #expect(limiter.queuedWaiters == 2)
        limiter.release(key: "b")
        #expect(await secondB.value)
        limiter.release(key: "a")
        #expect(await secondA.value)
        #expect(limiter.queuedWaiters == 0)
        for key in ["a", "b", "d"] { limiter.release(key: key) }
    }
}
