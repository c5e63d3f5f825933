import Foundation
import Pixpipe
import PixpipeLocking
import PixpipeTestSupport
import Testing

@Suite("Image pipeline: previews of progressive JPEGs while they download")
struct ImagePipelinePreviewTests {
    let server: TestHTTPServer
    let client: HTTPClient

    init() throws {
        server = try TestHTTPServer()
        client = PipelineFixture.client()
    }

    /// A pipeline attempting a preview every KiB, at 64 pixels.
    func pipeline() -> ImagePipeline {
        var configuration = ImagePipeline.Configuration(client: client, maxConcurrentDecodes: 2)
        configuration.previewByteInterval = 1024
        configuration.previewMaxPixelSize = 64
        return ImagePipeline(configuration: configuration)
    }

    /// Every event of `images(for:)`, in order.
    func events(_ pipeline: ImagePipeline, _ path: String) async throws -> [ImageLoadEvent] {
        var events: [ImageLoadEvent] = []
        for try await event in pipeline.images(for: ImageRequest(url: server.url(path))) { events.append(event) }
        return events
    }

    func jpeg(progressive: Bool) throws -> [UInt8] {
        let image = PipelineFixture.image(width: 256, height: 192)
        return [UInt8](try image.encoded(as: .jpeg(JPEGEncodeOptions(quality: 90, progressive: progressive))))
    }

    @Test("A progressive JPEG sent slowly gives reduced-size previews before its final image")
    func progressivePreviews() async throws {
        let body = try jpeg(progressive: true)
        server.route("/p.jpg", .trickle(body: body, chunkSize: 2048, interval: 0.01))
        let pipeline = pipeline()
        let events = try await events(pipeline, "/p.jpg")
        let previews = events.compactMap { event -> Image? in
            if case .preview(let image) = event { return image }
            return nil
        }
        #expect(!previews.isEmpty, "\(body.count) bytes in 2 KiB chunks")
        #expect(previews.allSatisfy { $0.width == 64 && $0.height == 48 })
        guard case .final(let final) = events.last else {
            Issue.record("the last event is not the final image")
            return
        }
        #expect(events.dropLast().allSatisfy { if case .preview = $0 { true } else { false } })
        #expect(final.width == 256 && final.height == 192)
        // Previews never enter the cache: it holds the final image.
        #expect(pipeline.cachedImage(for: server.url("/p.jpg"))?.width == 256)
        #expect(server.requestCount("/p.jpg") == 1)
    }

    @Test("Leaving the stream at the first preview cancels the download")
    func leavingCancels() async throws {
        let body = try jpeg(progressive: true)
        // Slow enough that the first preview comes long before the last byte.
        server.route("/slow.jpg", .trickle(body: body, chunkSize: 1024, interval: 0.2))
        let pipeline = pipeline()
        var first: ImageLoadEvent?
        for try await event in pipeline.images(for: ImageRequest(url: server.url("/slow.jpg"))) {
            first = event
            break
        }
        guard case .preview = first else {
            Issue.record("the first event is not a preview")
            return
        }
        #expect(await eventually { pipeline.pendingTaskCount == 0 })
        #expect(await eventually { pipeline.statistics.cancelledTransfers == 1 })
        #expect(pipeline.statistics.decodes == 0, "no final decode")
    }

    @Test("A baseline JPEG gives the final image only")
    func baselineNoPreviews() async throws {
        server.route("/b.jpg", .trickle(body: try jpeg(progressive: false), chunkSize: 2048, interval: 0.01))
        let events = try await events(pipeline(), "/b.jpg")
        #expect(events.count == 1)
        guard case .final(let final) = events.first else {
            Issue.record("no final image")
            return
        }
        #expect(final.width == 256)
    }

    @Test("A failed download ends the stream with the pipeline's error")
    func failureThrows() async throws {
        server.route("/missing.jpg", .text("no", status: 404))
        await #expect(throws: ImageLoadError.self) { _ = try await events(pipeline(), "/missing.jpg") }
    }
}
