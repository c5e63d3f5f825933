import Foundation
import PixpipeHTTP
import PixpipeImage

/// Bytes a decode starts from: the original's (with the HTTP metadata they came with), or a processed
/// output the disk cache kept, which only needs decoding.
struct DecodeSource: Sendable {
    var data: Data
    /// The original response's caching metadata (a processed output is stored with its original's).
    var metadata: HTTPCacheMetadata?
    /// Whether `data` is an already processed output.
    var isProcessed: Bool
    /// Where the bytes came from, which every caller of the decode is told.
    var origin: ImageResponse.Source = .network
}

/// One fetch of the original bytes of a URL, shared by every decode that needs them.
struct OriginalFetchJob: Sendable {
    enum Phase: Sendable {
        /// Waiting in the download queue.
        case queued
        /// Running; the task is recorded once started (`nil` in the moment between).
        case running(Task<Void, Never>?)
    }

    /// Tells this job from a later one for the same URL, whose results must not mix.
    let generation: UInt64
    /// The decodes waiting for the bytes.
    var decodes: Set<ImageCacheKey>
    var phase: Phase
}

/// One decode (and processing) shared by every caller asking for the same URL and processing.
struct DecodeJob: Sendable {
    enum Phase: Sendable {
        /// Looking for a stored processed output in the disk cache (only with processed outputs stored).
        case lookingUp
        /// Waiting for the download of its URL.
        case awaitingData
        /// The bytes are here; waiting in the decode queue.
        case queued(DecodeSource)
        /// Decoding on a global queue.
        case running
    }

    /// Tells this job from a later one for the same key.
    let generation: UInt64
    /// The URL and processing (from the first caller; every caller's identify the same pixels).
    let request: ImageRequest
    /// The callers' task numbers with their priorities.
    var callers: [UInt64: ImageRequest.Priority]
    var phase: Phase

    /// The highest priority of the callers: a shared job is as urgent as its most urgent caller.
    var priority: ImageRequest.Priority { callers.values.max() ?? .veryLow }
}

/// What a change of the coordinator's state asks to do once its lock is released: finish tasks, start
/// jobs, cancel transfers. Nothing here runs under the lock, since each may run other code.
struct CoordinatorEffects: Sendable {
    struct DecodeStart: Sendable {
        let key: ImageCacheKey
        let generation: UInt64
        let request: ImageRequest
        let source: DecodeSource
    }

    var finished: [(task: ImageTask, result: Result<ImageResponse, ImageLoadError>)] = []
    var downloads: [(url: URL, generation: UInt64)] = []
    var lookups: [(key: ImageCacheKey, generation: UInt64)] = []
    var decodes: [DecodeStart] = []
    var cancelledTransfers: [Task<Void, Never>] = []
}
