import PixpipeLocking
import Testing

/// Places in a limiter's queue taken in order before the tasks that claim them run: slots go in the order
/// of the reservations whatever order the tasks claim in, and a reservation dropped or cancelled gives back
/// what it held.
@Suite("Concurrency limiter: slot reservations")
struct SlotReservationTests {
    @Test func slotsGoInTheOrderOfTheReservationsNotOfTheClaims() async {
        let limiter = ConcurrencyLimiter(limit: 1)
        #expect(await limiter.acquire())
        let reservations = (0..<5).map { _ in limiter.reserve() }
        let order = Locked<[Int]>([])
        await withTaskGroup(of: Void.self) { group in
            // The last reservation's task asks first, as a later child task often does on a busy machine.
            for index in (0..<5).reversed() {
                let reservation = reservations[index]
                group.addTask {
                    guard await reservation.claim() else { return }
                    order.withLock { $0.append(index) }
                    limiter.release()
                }
                try? await Task.sleep(for: .milliseconds(2))
            }
            limiter.release()
        }
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
        #expect(limiter.queuedWaiters == 0)
    }

    @Test func aReservationWithRoomHoldsTheSlotAtOnce() async {
        let limiter = ConcurrencyLimiter(limit: 1)
        let reservation = limiter.reserve()
        // The slot is the reservation's before it is claimed: an asker queues behind it.
        let asker = Task { await limiter.acquire() }
        for _ in 0..<2_000 where limiter.queuedWaiters < 1 { try? await Task.sleep(for: .milliseconds(1)) }
        #expect(limiter.queuedWaiters == 1)
        #expect(await reservation.withSlot { 7 } == 7)
        #expect(await asker.value)
        limiter.release()
    }

    @Test func aReservationDroppedUnclaimedGivesItsPlaceOrItsSlotBack() async {
        let limiter = ConcurrencyLimiter(limit: 1)
        do {
            // Holds the free slot, never claimed (its task was cancelled before it asked).
            _ = limiter.reserve()
        }
        #expect(await limiter.acquire())
        let kept = limiter.reserve()
        do {
            // Queued behind `kept`, then dropped: it leaves the queue.
            _ = limiter.reserve()
        }
        #expect(limiter.queuedWaiters == 1)
        let claimer = Task { await kept.claim() }
        limiter.release()
        #expect(await claimer.value)
        #expect(limiter.queuedWaiters == 0)
        limiter.release()
        #expect(await limiter.acquire())
        limiter.release()
    }

    @Test func aTaskCancelledWhileClaimingGetsNothingAndTheNextGoes() async {
        let limiter = ConcurrencyLimiter(limit: 1)
        #expect(await limiter.acquire())
        let first = limiter.reserve()
        let second = limiter.reserve()
        let cancelled = Task { await first.claim() }
        try? await Task.sleep(for: .milliseconds(5))
        cancelled.cancel()
        #expect(await cancelled.value == false)
        #expect(limiter.queuedWaiters == 1)
        let next = Task { await second.claim() }
        limiter.release()
        #expect(await next.value)
        limiter.release()
        #expect(limiter.queuedWaiters == 0)
    }

    @Test func aTaskCancelledBeforeClaimingGivesTheReservationBack() async {
        let limiter = ConcurrencyLimiter(limit: 1)
        let reservation = limiter.reserve()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await reservation.claim()
        }
        #expect(await task.value == false)
        #expect(await limiter.acquire())
        limiter.release()
    }
}
