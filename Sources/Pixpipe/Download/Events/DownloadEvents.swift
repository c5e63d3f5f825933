import Foundation

/// The events of one running batch, ending with `.stopped`.
///
/// Cancelling the task that iterates it stops the batch (no new items; files being written are finished,
/// downloads in progress dropped, the manifest flushed) and the iteration continues up to `.stopped`, so
/// the consumer always sees the summary. Dropping the sequence without iterating it to the end stops the
/// batch too.
///
/// ```swift
/// for await event in downloader.run(items) {
///     if case .stopped(let summary) = event { print(summary) }
/// }
/// ```
public struct DownloadEvents: AsyncSequence, Sendable {
    /// The element type.
    public typealias Element = DownloadEvent
    /// Iteration never throws.
    public typealias Failure = Never

    let lease: DownloadLease

    /// The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(lease: lease)
    }

    /// Stops the batch as task cancellation would, without cancelling the consumer (for a SIGINT handler).
    public func cancel() {
        lease.task.cancel()
    }

    /// Hands out the events one by one.
    public struct Iterator: AsyncIteratorProtocol {
        /// The element type.
        public typealias Element = DownloadEvent
        /// Iteration never throws.
        public typealias Failure = Never

        let lease: DownloadLease

        /// The next event, or `nil` after `.stopped`.
        public mutating func next() async -> DownloadEvent? {
            let lease = self.lease
            return await withTaskCancellationHandler {
                await lease.channel.next()
            } onCancel: {
                lease.task.cancel()
            }
        }

        /// The next event and those already waiting behind it, in order (at most `limit`), or `nil` after
        /// `.stopped`: for a consumer that does its output once per batch rather than once per event.
        public mutating func nextBatch(limit: Int = 256) async -> [DownloadEvent]? {
            let lease = self.lease
            return await withTaskCancellationHandler {
                await lease.channel.nextBatch(limit: Swift.max(1, limit))
            } onCancel: {
                lease.task.cancel()
            }
        }
    }
}

/// Ties a batch's task to whoever holds its events: when the last holder goes away, the batch stops.
final class DownloadLease: Sendable {
    /// The channel the batch sends to.
    let channel: EventChannel
    /// The task running the batch.
    let task: Task<DownloadSummary, Never>

    /// A lease on a running batch.
    init(channel: EventChannel, task: Task<DownloadSummary, Never>) {
        self.channel = channel
        self.task = task
    }

    deinit {
        task.cancel()
        channel.abandon()
    }
}
