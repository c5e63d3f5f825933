import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// `imageResponse(for:)` and `ImageTask.response`: where each image came from, the same for every caller
/// of a shared job.
@Suite("Image pipeline: where an image came from")
struct ImagePipelineResponseTests {
    let server: TestHTTPServer
    let client: HTTPClient
    let folder = CacheFolder()

    init() throws {
        server = try TestHTTPServer()
        client = PipelineFixture.client()
    }

    func freshPipeline(processedImageEncoding: ImageEncoding? = nil) throws -> ImagePipeline {
        ImagePipeline(
            configuration: .init(
                client: client, dataCache: try DataCache(directory: folder.url),
                processedImageEncoding: processedImageEncoding))
    }

    /// Stale at once with an `ETag`; a conditional request is answered `304` (still stale), after `gate`.
    func serveRevalidated(_ path: String, gate: Gate? = nil) -> URL {
        let png = PipelineFixture.png()
        server.route(
            path,
            .handler { request in
                guard request.header("If-None-Match") == "\"v1\"" else {
                    return .respond(headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""], body: png)
                }
                gate?.wait()
                return .respond(status: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=0"], body: [])
            })
        return server.url(path)
    }

    @Test("network, then memory; a new pipeline revalidates; with the server stopped, stale on error")
    func sourcesOfOneURL() async throws {
        let url = serveRevalidated("/life.png")
        let first = try freshPipeline()
        let downloaded = try await first.imageResponse(for: ImageRequest(url: url))
        #expect(downloaded.source == .network && PipelineFixture.isImage(downloaded.image))
        #expect(try await first.imageResponse(for: ImageRequest(url: url)).source == .memoryCache)
        #expect(try await first.imageTask(with: ImageRequest(url: url)).response.source == .memoryCache)
        #expect(try await freshPipeline().imageResponse(for: ImageRequest(url: url)).source == .revalidated)
        server.stop()
        let offline = try await freshPipeline().imageResponse(for: ImageRequest(url: url))
        #expect(offline.source == .staleOnError && PipelineFixture.isImage(offline.image))
    }

    @Test("A fresh disk entry, original or processed output, is diskCache")
    func diskSources() async throws {
        server.route("/fresh.png", .respond(headers: ["Cache-Control": "max-age=3600"], body: PipelineFixture.png()))
        let url = server.url("/fresh.png")
        let thumbnail = ImageRequest(url: url, processing: [PipelineFixture.thumbnail(16)])
        #expect(try await freshPipeline(processedImageEncoding: .png).imageResponse(for: thumbnail).source == .network)
        #expect(try await freshPipeline().imageResponse(for: ImageRequest(url: url)).source == .diskCache)
        let processed = try freshPipeline(processedImageEncoding: .png)
        #expect(try await processed.imageResponse(for: thumbnail).source == .diskCache)
        #expect(processed.statistics.processedDiskHits == 1)
        #expect(server.requestCount("/fresh.png") == 1)
    }

    @Test("Callers sharing one revalidation, at two sizes and the original, are all told revalidated")
    func sharedJobSource() async throws {
        let gate = Gate()
        let url = serveRevalidated("/shared.png", gate: gate)
        _ = try await freshPipeline().image(for: url)
        let pipeline = try freshPipeline()
        let requests = [
            ImageRequest(url: url, processing: [PipelineFixture.thumbnail(8)]),
            ImageRequest(url: url, processing: [PipelineFixture.thumbnail(8)]),
            ImageRequest(url: url, processing: [PipelineFixture.thumbnail(16)]), ImageRequest(url: url),
        ]
        let tasks = requests.map { pipeline.imageTask(with: $0) }
        #expect(await eventually { gate.arrived == 1 })
        gate.open()
        var sources: [ImageResponse.Source] = []
        for task in tasks { sources.append(try await task.response.source) }
        #expect(sources == [.revalidated, .revalidated, .revalidated, .revalidated])
        #expect(server.requestCount("/shared.png") == 2)
        #expect(pipeline.statistics.decodes == 3 && pipeline.statistics.notModified == 1)
        // A later caller of a decoded image is served from memory.
        #expect(try await pipeline.imageResponse(for: requests[2]).source == .memoryCache)
    }
}
