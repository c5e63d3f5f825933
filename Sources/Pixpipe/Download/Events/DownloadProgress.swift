/// Running totals of a batch for drawing its progress: how many items finished and how, how many body
/// bytes arrived, out of how many items. Kept by the consumer from the events it receives, so it costs the
/// batch nothing.
///
/// ```swift
/// var progress = DownloadProgress(total: items.count)
/// for await event in downloader.run(items) {
///     progress.record(event)
///     print("\(progress.finished)/\(progress.total ?? 0): \(progress.failed) failed, \(progress.bytesReceived) bytes")
/// }
/// ```
///
/// `bytesReceived` counts body bytes downloaded, every attempt's, and only grows: a retry adds its bytes to
/// the failed attempt's. Progress events are dropped rather than queued when the consumer falls behind, so
/// between two events it lags the network; it is exact for finished items only in that each counts what its
/// events reported.
public struct DownloadProgress: Sendable, Hashable {
    /// The number of items in the batch when the caller knows it; `nil` otherwise.
    public var total: Int?
    /// Items finished, whatever their status.
    public private(set) var finished = 0
    /// Items stored.
    public private(set) var ok = 0
    /// Items that failed.
    public private(set) var failed = 0
    /// Items skipped (stored or failed by an earlier run, or a duplicate in the list).
    public private(set) var skipped = 0
    /// Items a refresh found unchanged.
    public private(set) var unchanged = 0
    /// Items a refresh found gone from the server.
    public private(set) var gone = 0
    /// Items whose transfer started and that have not finished.
    public var inFlight: Int { transfers.count }
    /// Body bytes received by the batch so far; only grows.
    public var bytesReceived: Int { finishedBytes + transfers.values.reduce(0) { $0 + $1.total } }
    /// The share of items finished, 0...1, when ``total`` is known.
    public var fractionCompleted: Double? {
        total.map { $0 == 0 ? 1 : min(1, Double(finished) / Double($0)) }
    }

    private var transfers: [Int: TransferBytes] = [:]
    private var finishedBytes = 0

    /// Totals of a batch of `total` items, none finished.
    public init(total: Int? = nil) {
        self.total = total
    }

    /// Counts `event` in.
    public mutating func record(_ event: DownloadEvent) {
        switch event {
        case .started(let index, _):
            transfers[index] = TransferBytes()
        case .progress(let index, let received, _):
            transfers[index, default: TransferBytes()].update(received)
        case .finished(let index, let record):
            finishedBytes += transfers.removeValue(forKey: index)?.total ?? 0
            finished += 1
            switch record.status {
            case .ok: ok += 1
            case .failed: failed += 1
            case .skipped: skipped += 1
            case .unchanged: unchanged += 1
            case .gone: gone += 1
            }
        case .hostPace:
            break
        case .stopped:
            // Transfers cut short by a stop keep their bytes, so the count never goes down.
            finishedBytes += transfers.values.reduce(0) { $0 + $1.total }
            transfers.removeAll()
        }
    }
}

/// The body bytes one item has received: those of its finished attempts and of the current one.
private struct TransferBytes: Sendable, Hashable {
    /// Bytes of the attempts before the current one.
    private var earlier = 0
    /// Bytes of the current attempt.
    private var current = 0

    /// All bytes received, every attempt's.
    var total: Int { earlier + current }

    /// Takes a progress report of `received` bytes; fewer than before means a new attempt began.
    mutating func update(_ received: Int) {
        if received < current { earlier += current }
        current = received
    }
}
