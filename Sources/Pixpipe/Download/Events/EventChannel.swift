import Foundation
import PixpipeLocking

/// A bounded queue of events from a batch to its one consumer, with backpressure.
///
/// ``send(_:)`` waits while the buffer is full, so a slow consumer slows the batch down instead of
/// letting events pile up; ``offer(_:)`` drops the event instead (for progress). Unlike `AsyncStream`,
/// ``next()`` is not ended by the consumer's cancellation: the batch reacts to the cancellation, and the
/// consumer still receives everything up to the final `.stopped`. When the consumer goes away
/// (``abandon()``), sends return at once and events are dropped.
///
/// ``send(contentsOf:)`` queues several events with one lock and at most one wake-up of the consumer, which
/// then takes the buffered events without suspending: a resumed batch reports thousands of skips per
/// second, and waking the consumer once per event cost an eighth of a 200,000-item resume.
final class EventChannel: Sendable {
    private struct State {
        var buffer: [DownloadEvent] = []
        var head = 0
        var consumer: CheckedContinuation<DownloadEvent?, Never>?
        var producers: [CheckedContinuation<Void, Never>] = []
        var finished = false
        var abandoned = false

        var count: Int { buffer.count - head }

        mutating func popFirst() -> DownloadEvent? {
            guard head < buffer.count else { return nil }
            let event = buffer[head]
            head += 1
            if head > 64, head * 2 > buffer.count {
                buffer.removeFirst(head)
                head = 0
            }
            return event
        }
    }

    private let capacity: Int
    private let state = Locked(State())

    /// A channel buffering at most `capacity` events.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Queues `event`, waiting while the buffer is full.
    func send(_ event: DownloadEvent) async {
        while !tryDeliver(event) {
            await withCheckedContinuation { (wait: CheckedContinuation<Void, Never>) in
                let parked = state.withLock { state in
                    let hasRoom = state.count < capacity || state.consumer != nil
                    guard !state.abandoned, !state.finished, !hasRoom else { return false }
                    state.producers.append(wait)
                    return true
                }
                if !parked { wait.resume() }
            }
        }
    }

    /// Queues `events` in order, waiting while the buffer is full, waking a waiting consumer once.
    func send(contentsOf events: [DownloadEvent]) async {
        var next = 0
        while next < events.count {
            let (queued, consumer): (Int, CheckedContinuation<DownloadEvent?, Never>?) = state.withLock { state in
                if state.abandoned || state.finished { return (events.count - next, nil) }
                var taken = 0
                let consumer = state.consumer
                if consumer != nil {
                    // A waiting consumer means an empty buffer: it gets the first event, the rest is buffered.
                    state.consumer = nil
                    taken = 1
                }
                let room = min(capacity - state.count, events.count - next - taken)
                if room > 0 {
                    state.buffer.append(contentsOf: events[(next + taken)..<(next + taken + room)])
                    taken += room
                }
                return (taken, consumer)
            }
            consumer?.resume(returning: events[next])
            if queued > 0 {
                next += queued
            } else {
                // Full: wait for room as a single send does.
                await send(events[next])
                next += 1
            }
        }
    }

    /// Queues `event` unless the buffer is full (then drops it).
    func offer(_ event: DownloadEvent) {
        let consumer: CheckedContinuation<DownloadEvent?, Never>? = state.withLock { state in
            guard !state.finished, !state.abandoned, state.count < capacity else { return nil }
            if let consumer = state.consumer {
                state.consumer = nil
                return consumer
            }
            state.buffer.append(event)
            return nil
        }
        consumer?.resume(returning: event)
    }

    /// Marks the end: the consumer gets what is buffered, then `nil`.
    func finish() {
        let consumer: CheckedContinuation<DownloadEvent?, Never>? = state.withLock { state in
            state.finished = true
            defer { state.consumer = nil }
            return state.count == 0 ? state.consumer : nil
        }
        consumer?.resume(returning: nil)
    }

    /// The consumer is gone: drop buffered and future events and release waiting senders.
    func abandon() {
        let producers: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.abandoned = true
            state.buffer = []
            state.head = 0
            defer { state.producers = [] }
            return state.producers
        }
        for producer in producers { producer.resume() }
    }

    /// The next event, or `nil` after the last one.
    func next() async -> DownloadEvent? {
        // A buffered event is taken without suspending.
        let ready: (DownloadEvent, CheckedContinuation<Void, Never>?)? = state.withLock { state in
            guard let event = state.popFirst() else { return nil }
            return (event, state.producers.isEmpty ? nil : state.producers.removeFirst())
        }
        if let (event, producer) = ready {
            producer?.resume()
            return event
        }
        return await withCheckedContinuation { (continuation: CheckedContinuation<DownloadEvent?, Never>) in
            let (event, producer, ended): (DownloadEvent?, CheckedContinuation<Void, Never>?, Bool) = state.withLock {
                state in
                if let event = state.popFirst() {
                    let producer = state.producers.isEmpty ? nil : state.producers.removeFirst()
                    return (event, producer, false)
                }
                if state.finished { return (nil, nil, true) }
                state.consumer = continuation
                return (nil, nil, false)
            }
            producer?.resume()
            if event != nil || ended { continuation.resume(returning: event) }
        }
    }

    /// The next event and those buffered behind it (at most `limit` in all), or `nil` after the last one.
    ///
    /// One lock for the batch after the first event, and every producer waiting for room is let go at once:
    /// a consumer that writes its output once per batch makes one system call for many items.
    func nextBatch(limit: Int) async -> [DownloadEvent]? {
        guard let first = await next() else { return nil }
        var batch = [first]
        let producers: [CheckedContinuation<Void, Never>] = state.withLock { state in
            while batch.count < limit, let event = state.popFirst() { batch.append(event) }
            defer { state.producers = [] }
            return state.producers
        }
        // A producer let go finds room or parks again: waking all is simpler than counting the room made.
        for producer in producers { producer.resume() }
        return batch
    }

    /// Hands `event` to the waiting consumer or buffers it; `false` when the buffer is full.
    /// An event sent after the consumer left (or after the end) counts as delivered and is dropped.
    private func tryDeliver(_ event: DownloadEvent) -> Bool {
        let (delivered, consumer): (Bool, CheckedContinuation<DownloadEvent?, Never>?) = state.withLock { state in
            if state.abandoned || state.finished { return (true, nil) }
            if let consumer = state.consumer {
                state.consumer = nil
                return (true, consumer)
            }
            guard state.count < capacity else { return (false, nil) }
            state.buffer.append(event)
            return (true, nil)
        }
        consumer?.resume(returning: event)
        return delivered
    }
}
