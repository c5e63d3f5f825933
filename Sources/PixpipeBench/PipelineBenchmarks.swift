import Dispatch
import Foundation
import Pixpipe
import PixpipeLocking
import PixpipeTestSupport

/// The `ImagePipeline` rows of `scripts/bench`: memory-cache hits per second, a disk-cache hit
/// against a fresh fetch and decode, and a mixed workload of Zipf-distributed URLs at three sizes.
///
/// Each serves its input files from an in-process HTTP server on 127.0.0.1 (see ``BenchServer``).
enum PipelineBenchmarks {
    typealias Body = @Sendable (BenchArguments, BenchServer) async throws(BenchError) -> PipelineBenchReport

    /// The thumbnail sizes of the mixed workload: a list row, a card and a detail view.
    static let sizes = [64, 128, 256]

    /// Runs `body` on the cooperative pool and waits for its report on this (the main) thread.
    static func run(_ arguments: BenchArguments, _ body: @escaping Body) throws(BenchError) -> PipelineBenchReport {
        let server = try BenchServer(files: arguments.files)
        let outcome = Locked<Result<PipelineBenchReport, BenchError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<PipelineBenchReport, BenchError>
            do throws(BenchError) {
                result = .success(try await body(arguments, server))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        server.server.stop()
        guard let result = outcome.withLock({ $0 }) else { throw .pipeline("no result") }
        return try result.get()
    }

    /// Memory-cache hits: `image(for:)` (async, with its cache lookup and statistics) and the synchronous
    /// `cachedImage(for:)`, of one 256-pixel thumbnail, `--requests` times per run (100,000 by default).
    @Sendable static func memoryHits(_ arguments: BenchArguments, _ served: BenchServer) async throws(BenchError)
        -> PipelineBenchReport
    {
        let url = served.serve(count: 1, headers: [:])[0]
        let pipeline = ImagePipeline(configuration: .init(client: BenchServer.client()))
        let request = ImageRequest(url: url, processing: [.thumbnail(ThumbnailOptions(size: .box(256)))])
        _ = try await load(pipeline, request)
        let hits = arguments.requests > 0 ? arguments.requests : 100_000
        let asyncSeconds = try await measure(arguments) { () async throws(BenchError) in
            for _ in 0..<hits { _ = try await load(pipeline, request) }
        }
        let syncSeconds = Stopwatch(warmups: arguments.warmups, repetitions: arguments.repetitions).measure {
            for _ in 0..<hits where pipeline.cachedImage(for: request) == nil {
                preconditionFailure("the image left the memory cache")
            }
        }
        let seconds = Stopwatch.median(asyncSeconds)
        return PipelineBenchReport(
            operation: "pipeline-memory",
            values: [
                "hits": Double(hits), "repetitions": Double(asyncSeconds.count), "seconds_median": seconds,
                "hits_per_s": Double(hits) / seconds,
                "cached_image_hits_per_s": Double(hits) / Stopwatch.median(syncSeconds),
                "network_requests": Double(pipeline.statistics.networkRequests),
            ])
    }

    /// Every file loaded one after another (full decode, no processing) by a pipeline with an empty memory
    /// cache over a disk cache holding them all, against one with no disk cache (a fetch from the local
    /// server and a decode); the disk read and the decode alone are timed too. Times are per image.
    @Sendable static func diskHits(_ arguments: BenchArguments, _ served: BenchServer) async throws(BenchError)
        -> PipelineBenchReport
    {
        let urls = served.serve(count: served.bodies.count, headers: ["Cache-Control": "max-age=86400"])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pixpipe-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try dataCache(folder)
        let client = BenchServer.client()
        let filler = ImagePipeline(configuration: .init(client: client, imageCache: nil, dataCache: cache))
        for url in urls { _ = try await load(filler, ImageRequest(url: url)) }

        let diskSeconds = try await measure(arguments) { () async throws(BenchError) in
            let pipeline = ImagePipeline(configuration: .init(client: client, dataCache: cache))
            for url in urls { _ = try await load(pipeline, ImageRequest(url: url)) }
            guard pipeline.statistics.diskHits == urls.count else { throw .pipeline("a disk-cache miss") }
        }
        let fetchSeconds = try await measure(arguments) { () async throws(BenchError) in
            let pipeline = ImagePipeline(configuration: .init(client: client))
            for url in urls { _ = try await load(pipeline, ImageRequest(url: url)) }
        }
        let stopwatch = Stopwatch(warmups: arguments.warmups, repetitions: arguments.repetitions)
        let readSeconds = stopwatch.measure {
            for url in urls where cache.entry(for: url.absoluteString) == nil { preconditionFailure("entry gone") }
        }
        let decodeSeconds = stopwatch.measure {
            for body in served.bodies where (try? Image(data: Data(body))) == nil { preconditionFailure("undecodable") }
        }
        let count = Double(urls.count)
        let disk = Stopwatch.median(diskSeconds)
        let fetch = Stopwatch.median(fetchSeconds)
        return PipelineBenchReport(
            operation: "pipeline-disk",
            values: [
                "files": count, "repetitions": Double(diskSeconds.count), "seconds_median": disk,
                "disk_hit_ms": disk / count * 1000, "fetch_decode_ms": fetch / count * 1000,
                "disk_read_ms": Stopwatch.median(readSeconds) / count * 1000,
                "decode_ms": Stopwatch.median(decodeSeconds) / count * 1000, "fetch_over_disk": fetch / disk,
            ])
    }

    /// `--requests` requests (10,000 by default) over `--urls` URLs (1,000) drawn from a Zipf distribution
    /// (s = 1, fixed seed), each at one of three thumbnail sizes, `--concurrency` (64) in flight, through a
    /// pipeline with a memory cache and a disk cache that start empty every run. Reports what the last run
    /// asked of the server and decoded, beside the least possible (distinct URLs, distinct URL-size pairs).
    @Sendable static func mixed(_ arguments: BenchArguments, _ served: BenchServer) async throws(BenchError)
        -> PipelineBenchReport
    {
        let urls = served.serve(count: arguments.urls, headers: ["Cache-Control": "max-age=86400"])
        let count = arguments.requests > 0 ? arguments.requests : 10_000
        let plan = zipfPlan(count: count, urls: urls.count)
        let requests = plan.map { entry in
            ImageRequest(
                url: urls[entry.url], processing: [.thumbnail(ThumbnailOptions(size: .box(sizes[entry.size])))])
        }
        let client = BenchServer.client()
        var last = ImagePipeline.Statistics()
        var serverRequests = 0
        let seconds = try await measure(arguments) { () async throws(BenchError) in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "pixpipe-bench-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let before = served.requestCount(urls)
            let pipeline = ImagePipeline(configuration: .init(client: client, dataCache: try dataCache(folder)))
            let failures = await runAll(requests, on: pipeline, concurrency: arguments.concurrency)
            guard failures == 0 else { throw .pipeline("\(failures) requests failed") }
            last = pipeline.statistics
            serverRequests = served.requestCount(urls) - before
        }
        let median = Stopwatch.median(seconds)
        let distinctKeys = Set(plan.map { $0.url * sizes.count + $0.size }).count
        var values: [String: Double] = ["requests": Double(count), "seconds_median": median]
        values["repetitions"] = Double(seconds.count)
        values["requests_per_s"] = Double(count) / median
        values["distinct_urls"] = Double(Set(plan.map(\.url)).count)
        values["distinct_keys"] = Double(distinctKeys)
        values["server_requests"] = Double(serverRequests)
        values["network_requests"] = Double(last.networkRequests)
        values["disk_hits"] = Double(last.diskHits)
        values["memory_hits"] = Double(last.memoryHits)
        values["decodes"] = Double(last.decodes)
        return PipelineBenchReport(operation: "pipeline-mixed", values: values)
    }

    /// `count` (URL index, size index) pairs: URL ranks from Zipf(1) over `urls`, sizes uniform.
    static func zipfPlan(count: Int, urls: Int) -> [(url: Int, size: Int)] {
        var cumulative: [Double] = []
        var total = 0.0
        for rank in 1...urls {
            total += 1 / Double(rank)
            cumulative.append(total)
        }
        var generator = SeededGenerator(seed: 19)
        return (0..<count).map { _ in
            let draw = Double.random(in: 0..<total, using: &generator)
            var low = 0
            var high = cumulative.count - 1
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle] <= draw { low = middle + 1 } else { high = middle }
            }
            return (low, Int.random(in: 0..<sizes.count, using: &generator))
        }
    }

    /// Runs every request with at most `concurrency` in flight; returns how many failed.
    static func runAll(_ requests: [ImageRequest], on pipeline: ImagePipeline, concurrency: Int) async -> Int {
        await withTaskGroup(of: Bool.self) { group in
            var next = 0
            var failures = 0
            while next < min(concurrency, requests.count) {
                let request = requests[next]
                group.addTask { (try? await pipeline.image(for: request)) != nil }
                next += 1
            }
            for await succeeded in group {
                if !succeeded { failures += 1 }
                if next < requests.count {
                    let request = requests[next]
                    group.addTask { (try? await pipeline.image(for: request)) != nil }
                    next += 1
                }
            }
            return failures
        }
    }

    /// Seconds of each timed run of `body`, after the warm-up runs.
    static func measure(_ arguments: BenchArguments, _ body: () async throws(BenchError) -> Void)
        async throws(BenchError) -> [Double]
    {
        var seconds: [Double] = []
        for run in 0..<(arguments.warmups + arguments.repetitions) {
            let start = ContinuousClock.now
            try await body()
            if run >= arguments.warmups { seconds.append((ContinuousClock.now - start).secondsValue) }
        }
        return seconds
    }

    private static func load(_ pipeline: ImagePipeline, _ request: ImageRequest) async throws(BenchError) -> Image {
        do {
            return try await pipeline.image(for: request)
        } catch {
            throw .pipeline(error.description)
        }
    }

    private static func dataCache(_ folder: URL) throws(BenchError) -> DataCache {
        do {
            return try DataCache(directory: folder, sizeLimit: 1 << 30)
        } catch {
            throw .pipeline(error.description)
        }
    }
}
