import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

@Suite("Image pipeline: the disk cache and HTTP revalidation")
struct ImagePipelineDiskTests {
    let server: TestHTTPServer
    let client: HTTPClient
    let folder = CacheFolder()

    init() throws {
        server = try TestHTTPServer()
        client = PipelineFixture.client()
    }

    /// A pipeline with a memory cache of its own over the shared folder: what a new process would see.
    func freshPipeline() throws -> ImagePipeline {
        PipelineFixture.pipeline(client: client, dataCache: try DataCache(directory: folder.url))
    }

    @Test("A second pipeline over the folder makes no request while the entry is fresh")
    func freshEntry() async throws {
        server.route(
            "/fresh.png",
            .respond(headers: ["Cache-Control": "max-age=3600", "ETag": "\"v1\""], body: PipelineFixture.png()))
        let url = server.url("/fresh.png")
        #expect(PipelineFixture.isImage(try await freshPipeline().image(for: url)))
        let second = try freshPipeline()
        let thumbnail = try await second.image(for: ImageRequest(url: url, processing: [PipelineFixture.thumbnail(8)]))
        #expect(max(thumbnail.width, thumbnail.height) == 8)
        #expect(PipelineFixture.isImage(try await second.image(for: url)))
        #expect(server.requestCount("/fresh.png") == 1)
        #expect(second.statistics.diskHits == 2 && second.statistics.networkRequests == 0)
    }

    @Test("A stale entry costs one conditional request; its 304 reuses the bytes and refreshes the entry")
    func staleEntryRevalidated() async throws {
        let png = PipelineFixture.png()
        server.route(
            "/stale.png",
            .handler { request in
                if request.header("If-None-Match") == "\"v1\"" {
                    return .respond(
                        status: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=3600"], body: [])
                }
                // Stale at once, but with validators.
                return .respond(headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""], body: png)
            })
        let url = server.url("/stale.png")
        #expect(PipelineFixture.isImage(try await freshPipeline().image(for: url)))
        let second = try freshPipeline()
        #expect(PipelineFixture.isImage(try await second.image(for: url)))
        let requests = server.requests("/stale.png")
        #expect(requests.count == 2)
        #expect(requests.first?.header("If-None-Match") == nil)
        #expect(requests.last?.header("If-None-Match") == "\"v1\"")
        #expect(second.statistics.notModified == 1)
        // The 304's max-age now governs the stored entry: a third pipeline asks nothing.
        let third = try freshPipeline()
        #expect(PipelineFixture.isImage(try await third.image(for: url)))
        #expect(server.requestCount("/stale.png") == 2)
        let entry = try DataCache(directory: folder.url).entry(for: url.absoluteString)
        #expect(entry?.data == Data(png))
        #expect(entry?.metadata?.headers["Cache-Control"] == "max-age=3600")
    }

    @Test("Last-Modified alone revalidates with If-Modified-Since, and new bytes replace the entry")
    func lastModifiedRevalidation() async throws {
        let old = PipelineFixture.png(seed: 1)
        let new = PipelineFixture.png(seed: 2)
        let stamp = "Tue, 01 Dec 2026 10:00:00 GMT"
        server.route(
            "/changing.png",
            .handler { request in
                if request.header("If-Modified-Since") == stamp {
                    return .respond(headers: ["Cache-Control": "max-age=3600"], body: new)
                }
                return .respond(headers: ["Cache-Control": "no-cache", "Last-Modified": stamp], body: old)
            })
        let url = server.url("/changing.png")
        #expect(PipelineFixture.isImage(try await freshPipeline().image(for: url), seed: 1))
        #expect(PipelineFixture.isImage(try await freshPipeline().image(for: url), seed: 2))
        #expect(PipelineFixture.isImage(try await freshPipeline().image(for: url), seed: 2))
        #expect(server.requestCount("/changing.png") == 2)
    }

    @Test("A no-store response is never stored")
    func noStore() async throws {
        server.route("/private.png", .respond(headers: ["Cache-Control": "no-store"], body: PipelineFixture.png()))
        let url = server.url("/private.png")
        #expect(PipelineFixture.isImage(try await freshPipeline().image(for: url)))
        #expect(folder.fileNames().filter { !$0.hasPrefix(".") }.isEmpty)
        #expect(PipelineFixture.isImage(try await freshPipeline().image(for: url)))
        #expect(server.requestCount("/private.png") == 2)
    }

    @Test("The .never policy stores nothing, .always serves what HTTP would revalidate")
    func policies() async throws {
        server.route("/policy.png", .respond(headers: ["Cache-Control": "max-age=0"], body: PipelineFixture.png()))
        let url = server.url("/policy.png")
        let never = PipelineFixture.pipeline(
            client: client, dataCache: try DataCache(directory: folder.url), policy: .never)
        _ = try await never.image(for: url)
        #expect(folder.fileNames().filter { !$0.hasPrefix(".") }.isEmpty)
        for _ in 0..<2 {
            let always = PipelineFixture.pipeline(
                client: client, dataCache: try DataCache(directory: folder.url), policy: .always)
            _ = try await always.image(for: url)
        }
        #expect(server.requestCount("/policy.png") == 2)
    }

    @Test("A damaged entry is a miss: refetched, never decoded")
    func corruptedEntry() async throws {
        server.route("/photo.png", .respond(headers: ["Cache-Control": "max-age=3600"], body: PipelineFixture.png()))
        let url = server.url("/photo.png")
        #expect(PipelineFixture.isImage(try await freshPipeline().image(for: url)))
        let path = folder.url.appendingPathComponent(DataCache.fileName(for: url.absoluteString)).path
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count - 100] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let second = try freshPipeline()
        #expect(PipelineFixture.isImage(try await second.image(for: url)))
        #expect(server.requestCount("/photo.png") == 2)
        #expect(second.statistics.diskHits == 0)
        // Stored whole again.
        #expect(PipelineFixture.isImage(try await freshPipeline().image(for: url)))
        #expect(server.requestCount("/photo.png") == 2)
    }
}

extension ImagePipelineDiskTests {
    /// A pipeline that also keeps processed outputs, as PNG, over the shared folder.
    func processedPipeline() throws -> ImagePipeline {
        ImagePipeline(
            configuration: .init(
                client: client, dataCache: try DataCache(directory: folder.url), processedImageEncoding: .png))
    }

    @Test("Processed outputs kept by option serve a new pipeline with no download and no processing")
    func processedOutputs() async throws {
        server.route("/big.png", .respond(headers: ["Cache-Control": "max-age=3600"], body: PipelineFixture.png()))
        let url = server.url("/big.png")
        let request = ImageRequest(url: url, processing: [PipelineFixture.thumbnail(16)])
        let first = try await processedPipeline().image(for: request)
        #expect(folder.fileNames().filter { !$0.hasPrefix(".") }.count == 2)
        // Without the original, the output still serves: it is not made again.
        try DataCache(directory: folder.url).removeEntry(for: url.absoluteString)
        let log = ArrivalLog()
        let second = try processedPipeline()
        var counted = request
        counted.processing.append(RecordingStep(label: "never", log: log))
        let image = try await second.image(for: request)
        #expect(image.pixels == first.pixels && image.width == first.width && image.height == first.height)
        #expect(second.statistics.processedDiskHits == 1 && second.statistics.networkRequests == 0)
        #expect(server.requestCount("/big.png") == 1)
        // Another processing is not stored: it needs the original again.
        _ = try await second.image(for: counted)
        #expect(server.requestCount("/big.png") == 2)
        #expect(log.order == ["never"])
    }

    @Test("A stale processed output is remade from the revalidated original; no-store keeps none")
    func processedOutputsFollowTheOriginal() async throws {
        server.route(
            "/etag.png",
            .handler { request in
                if request.header("If-None-Match") == "\"v1\"" {
                    return .respond(status: 304, headers: ["ETag": "\"v1\""], body: [])
                }
                return .respond(headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""], body: PipelineFixture.png())
            })
        server.route("/secret.png", .respond(headers: ["Cache-Control": "no-store"], body: PipelineFixture.png()))
        let stale = ImageRequest(url: server.url("/etag.png"), processing: [PipelineFixture.thumbnail(16)])
        _ = try await processedPipeline().image(for: stale)
        let second = try processedPipeline()
        _ = try await second.image(for: stale)
        #expect(second.statistics.processedDiskHits == 0 && second.statistics.notModified == 1)
        #expect(second.statistics.decodes == 1)
        let secret = ImageRequest(url: server.url("/secret.png"), processing: [PipelineFixture.thumbnail(16)])
        _ = try await processedPipeline().image(for: secret)
        #expect(folder.fileNames().filter { !$0.hasPrefix(".") }.count == 2)
    }

    @Test("A decode limit refuses the image with a typed error and keeps its bytes on the disk")
    func decodeLimit() async throws {
        server.route("/wide.png", .respond(headers: ["Cache-Control": "max-age=3600"], body: PipelineFixture.png()))
        let url = server.url("/wide.png")
        var options = DecodeOptions()
        options.pixelLimit = 1_000
        let limited = ImagePipeline(
            configuration: .init(
                client: client, dataCache: try DataCache(directory: folder.url), decodeOptions: options))
        let error = await #expect(throws: ImageLoadError.self) { try await limited.image(for: url) }
        #expect(error == .decoding(.tooLarge(width: 64, height: 48, limit: 1_000), url: url))
        #expect(error?.shortName == "too-large-image")
        // The bytes are fine, only too large for this pipeline: another one reads them from the disk.
        let second = try freshPipeline()
        #expect(PipelineFixture.isImage(try await second.image(for: url)))
        #expect(second.statistics.diskHits == 1 && server.requestCount("/wide.png") == 1)
    }
}
