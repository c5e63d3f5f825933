import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `file:` URLs in the pipeline, beside `http` ones: read from the disk through the same decode, processing
/// and memory cache, never through the network or into the disk cache, and held to the pipeline's limits.
@Suite("Image pipeline: local files beside web images")
struct ImagePipelineFileTests {
    let server: TestHTTPServer
    let cacheFolder = CacheFolder()
    let files: URL

    init() throws {
        server = try TestHTTPServer()
        files = FileManager.default.temporaryDirectory.appendingPathComponent("pixpipe-pipeline-files-\(UUID())")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    }

    /// A PNG of the fixture image (seed `seed`) written as `name` in the files folder.
    func localPNG(_ name: String, seed: Int = 1) throws -> URL {
        let url = files.appendingPathComponent(name)
        try Data(PipelineFixture.png(seed: seed)).write(to: url)
        return url
    }

    /// The entry files in the disk cache's folder.
    func cacheEntries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: cacheFolder.url.path).filter { !$0.hasPrefix(".") }
    }

    @Test("A file URL and an http URL load through one pipeline; only the web image is fetched and stored")
    func mixOfLocalAndRemote() async throws {
        server.route("/remote.png", .respond(headers: ["Cache-Control": "max-age=3600"], body: PipelineFixture.png()))
        let remote = server.url("/remote.png")
        let local = try localPNG("local.png", seed: 1)
        let cache = try DataCache(directory: cacheFolder.url)
        let pipeline = PipelineFixture.pipeline(client: PipelineFixture.client(), dataCache: cache)

        let localResponse = try await pipeline.imageResponse(for: ImageRequest(url: local))
        let remoteResponse = try await pipeline.imageResponse(for: ImageRequest(url: remote))
        #expect(localResponse.source == .localFile && PipelineFixture.isImage(localResponse.image, seed: 1))
        #expect(remoteResponse.source == .network && PipelineFixture.isImage(remoteResponse.image))
        #expect(try await pipeline.imageResponse(for: ImageRequest(url: local)).source == .memoryCache)

        let thumbnail = try await pipeline.image(
            for: ImageRequest(url: local, processing: [PipelineFixture.thumbnail(16)]))
        #expect(max(thumbnail.width, thumbnail.height) == 16)
        #expect(server.requestCount("/remote.png") == 1)
        #expect(pipeline.statistics.networkRequests == 1 && pipeline.statistics.decodes == 3)
        #expect(cache.entry(for: local.absoluteString) == nil)
        #expect(cache.entry(for: remote.absoluteString) != nil)
        #expect(try cacheEntries().count == 1)
    }

    @Test("A file's processed outputs are not stored in the disk cache")
    func noProcessedEntriesForFiles() async throws {
        let local = try localPNG("thumb-source.png")
        var configuration = ImagePipeline.Configuration(
            client: PipelineFixture.client(), dataCache: try DataCache(directory: cacheFolder.url))
        configuration.processedImageEncoding = .png
        let pipeline = ImagePipeline(configuration: configuration)
        let thumbnail = try await pipeline.image(
            for: ImageRequest(url: local, processing: [PipelineFixture.thumbnail(8)]))
        #expect(max(thumbnail.width, thumbnail.height) == 8)
        #expect(try cacheEntries().isEmpty)
        #expect(pipeline.statistics.processedDiskHits == 0 && pipeline.statistics.networkRequests == 0)
    }

    @Test("A missing file, a folder and a FIFO are typed read errors; none reaches the network")
    func unreadableFiles() async throws {
        let pipeline = PipelineFixture.pipeline(client: PipelineFixture.client())
        let fifo = files.appendingPathComponent("pipe.png")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for url in [files.appendingPathComponent("missing.png"), files, fifo] {
            let error = await #expect(throws: ImageLoadError.self) { try await pipeline.image(for: url) }
            guard case .decoding(.unreadable(let path, _), let errorURL) = error else {
                Issue.record("expected an unreadable file for \(url.path), got \(String(describing: error))")
                continue
            }
            #expect(path == url.path && errorURL == url && error?.shortName == "unreadable-file")
        }
        #expect(pipeline.statistics.networkRequests == 0)
    }

    @Test("The pipeline's input and pixel limits apply to files")
    func limits() async throws {
        let local = try localPNG("limited.png")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: local.path)[.size] as? Int)
        var configuration = ImagePipeline.Configuration(client: PipelineFixture.client())
        configuration.decodeOptions.byteLimit = size - 1
        let byteLimited = ImagePipeline(configuration: configuration)
        let tooBig = await #expect(throws: ImageLoadError.self) { try await byteLimited.image(for: local) }
        #expect(tooBig == .decoding(.inputTooLarge(bytes: size, limit: size - 1), url: local))

        configuration.decodeOptions.byteLimit = nil
        configuration.decodeOptions.pixelLimit = 100
        let pixelLimited = ImagePipeline(configuration: configuration)
        let tooLarge = await #expect(throws: ImageLoadError.self) { try await pixelLimited.image(for: local) }
        #expect(tooLarge?.shortName == "too-large-image")
    }
}
