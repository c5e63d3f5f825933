import Foundation
import PixpipeHTTP
import PixpipeLocking

/// Gets the original bytes of a URL the way HTTP caching allows: from the disk cache while fresh, with a
/// conditional request when stale (a `304` keeps the stored bytes and refreshes their metadata), from the
/// network otherwise, storing what the policy lets it store.
///
/// One call per download job, however many callers share it. The disk cache is read and written on the
/// calling task: an entry is read with one `read` of its size and written as one temporary file renamed,
/// which is short next to the transfer it saves or follows.
struct OriginalDataLoader: Sendable {
    /// Sends the requests.
    let client: HTTPClient
    /// Where original bytes are kept, if anywhere.
    let dataCache: DataCache?
    /// What HTTP's caching headers are allowed to decide.
    let policy: HTTPCachePolicy
    /// Where loads are counted.
    let statistics: Locked<ImagePipeline.Statistics>

    /// The bytes of `url`; `progress` and `observer` see a network body as it arrives.
    func load(
        _ url: URL, observer: (any ResponseBodyObserver)? = nil,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async -> Result<
        DecodeSource, ImagePipelineError
    > {
        let key = url.absoluteString
        var stored: DataCacheEntry?
        var conditional = HTTPHeaders()
        var hadEntry = false
        if let dataCache, policy != .never, let entry = dataCache.entry(for: key) {
            hadEntry = true
            // An entry stored without HTTP metadata (by a program, not the pipeline) has nothing to judge by.
            switch entry.metadata.map({ policy.use($0, now: Date()) }) ?? .fresh {
            case .fresh:
                statistics.withLock { $0.diskHits += 1 }
                return .success(DecodeSource(data: entry.data, metadata: entry.metadata, isProcessed: false))
            case .revalidate(let headers):
                stored = entry
                conditional = headers
            case .refetch:
                break
            }
        }
        var request = Request<Data>(url: url, headers: conditional)
        if stored != nil { request.acceptableStatusCodes.insert(304) }
        request.onProgress = progress
        request.bodyObserver = observer
        statistics.withLock { $0.networkRequests += 1 }
        let sent = Date()
        let response: Response<Data>
        do {
            response = try await client.response(for: request)
        } catch {
            return .failure(.fetch(error))
        }
        let received = Date()
        if response.statusCode == 304, let stored, let metadata = stored.metadata {
            statistics.withLock { $0.notModified += 1 }
            let refreshed = metadata.updated(with: response.headers, requestTime: sent, responseTime: received)
            // A cache may lose entries: a failed write costs a later request, not this image.
            try? dataCache?.store(DataCacheEntry(data: stored.data, metadata: refreshed), for: key)
            return .success(DecodeSource(data: stored.data, metadata: refreshed, isProcessed: false))
        }
        let metadata = HTTPCacheMetadata(response: response.metadata, requestTime: sent, responseTime: received)
        if let dataCache {
            if policy.mayStore(metadata) {
                try? dataCache.store(response.value, metadata: metadata, for: key)
            } else if hadEntry {
                // Not storable now (`no-store`): the older copy must not be served again either.
                dataCache.removeEntry(for: key)
            }
        }
        return .success(DecodeSource(data: response.value, metadata: metadata, isProcessed: false))
    }
}
