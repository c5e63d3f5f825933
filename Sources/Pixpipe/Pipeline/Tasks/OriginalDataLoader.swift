import Foundation
import PixpipeHTTP
import PixpipeLocking

/// Gets the original bytes of a URL the way HTTP caching allows: from the disk cache while fresh, with a
/// conditional request when stale (a `304` keeps the stored bytes and refreshes their metadata), from the
/// network otherwise, storing what the policy lets it store; and, when the origin cannot be reached, from a
/// stale stored copy that allows it (RFC 9111 4.2.4).
///
/// A `file:` URL is read from the disk instead (``LocalImageFile``), with no request and no disk-cache entry.
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
    /// Whether a stale stored copy stands in when the origin cannot be reached (see
    /// ``ImagePipeline/Configuration/servesStaleOnError``).
    let servesStaleOnError: Bool
    /// Where loads are counted.
    let statistics: Locked<ImagePipeline.Statistics>
    /// The most bytes a local file may hold: the decode options' input limit and the client's body cap,
    /// whichever is smaller (a file is held to the limits a download is).
    let fileByteLimit: Int?

    /// The bytes of `url`; `progress` and `observer` see a network body as it arrives.
    func load(
        _ url: URL, observer: (any ResponseBodyObserver)? = nil,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async -> Result<
        DecodeSource, ImageLoadError
    > {
        if url.isFileURL { return loadFile(url) }
        let key = url.absoluteString
        var stored: DataCacheEntry?
        var conditional = HTTPHeaders()
        var hadEntry = false
        // The stale copy kept for when the origin cannot be reached, validators or not.
        var fallback: DataCacheEntry?
        if let dataCache, policy != .never, let entry = dataCache.entry(for: key) {
            hadEntry = true
            fallback = entry
            // An entry stored without HTTP metadata (by a program, not the pipeline) has nothing to judge by.
            switch entry.metadata.map({ policy.use($0, now: Date()) }) ?? .fresh {
            case .fresh:
                statistics.withLock { $0.diskHits += 1 }
                return .success(
                    DecodeSource(data: entry.data, metadata: entry.metadata, isProcessed: false, origin: .diskCache))
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
            if let fallback, let source = staleSource(fallback, after: error) { return .success(source) }
            return .failure(.fetch(error))
        }
        let received = Date()
        if response.statusCode == 304, let stored, let metadata = stored.metadata {
            statistics.withLock { $0.notModified += 1 }
            let refreshed = metadata.updated(with: response.headers, requestTime: sent, responseTime: received)
            // A cache may lose entries: a failed write costs a later request, not this image.
            try? dataCache?.store(DataCacheEntry(data: stored.data, metadata: refreshed), for: key)
            return .success(
                DecodeSource(data: stored.data, metadata: refreshed, isProcessed: false, origin: .revalidated))
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
        return .success(
            DecodeSource(data: response.value, metadata: metadata, isProcessed: false, origin: .network))
    }

    /// The bytes of a local file, under ``fileByteLimit``. Never stored in the disk cache: the file is its
    /// own copy, and reading it costs what reading an entry would.
    private func loadFile(_ url: URL) -> Result<DecodeSource, ImageLoadError> {
        do {
            let data = try LocalImageFile.read(url.path, byteLimit: fileByteLimit)
            return .success(DecodeSource(data: data, metadata: nil, isProcessed: false, origin: .localFile))
        } catch {
            return .failure(.decoding(error, url: url))
        }
    }

    /// The stale copy `entry` as the bytes to decode, when `error` says the origin could not be reached and
    /// the copy's metadata lets it serve then (no `must-revalidate`, no `no-cache`); `nil` otherwise.
    ///
    /// Only an unreachable origin counts (``HTTPError/isOriginUnreachable``): a `5xx` is an answer, and RFC
    /// 9111 lets a cache serve stale on it only where allowed (RFC 5861's `stale-if-error`), which this
    /// cache does not read. The entry is left as it is, so the next load asks the origin again.
    private func staleSource(_ entry: DataCacheEntry, after error: HTTPError) -> DecodeSource? {
        guard servesStaleOnError, error.isOriginUnreachable, let metadata = entry.metadata, metadata.mayServeStale
        else { return nil }
        statistics.withLock { $0.staleServed += 1 }
        return DecodeSource(data: entry.data, metadata: metadata, isProcessed: false, origin: .staleOnError)
    }
}
