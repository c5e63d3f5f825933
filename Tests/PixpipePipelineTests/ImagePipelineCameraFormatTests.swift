import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

@Suite(
    "Image pipeline: HEIC, JPEG XL and TIFF photos through both caches",
    .enabled(if: CameraCorpus.isAvailable, "PIXPIPE_CORPORA is not set"))
struct ImagePipelineCameraFormatTests {
    let server: TestHTTPServer
    let client: HTTPClient
    let folder = CacheFolder()

    init() throws {
        server = try TestHTTPServer()
        client = PipelineFixture.client()
    }

    @Test(
        "A camera photo is decoded upright once, then served from memory, then from disk by a new pipeline",
        arguments: CameraCorpus.orientedSamples)
    func photoThroughBothCaches(_ sample: CameraCorpus.Sample) async throws {
        let bytes = try sample.bytes()
        let reference = try sample.reference()
        server.route("/photo", .respond(headers: ["Cache-Control": "max-age=3600"], body: bytes))
        let request = ImageRequest(url: server.url("/photo"), processing: [.orientation])

        let pipeline = PipelineFixture.pipeline(client: client, dataCache: try DataCache(directory: folder.url))
        let first = try await pipeline.image(for: request)
        #expect(first.metadata.sourceFormat == ImageFormat(name: sample.folder))
        #expect(first.width == reference.width && first.height == reference.height)
        if sample.hasPortableSamples {
            #expect(CameraSampleDigest.sha256(first, channels: reference.channels) == reference.sha256)
        }
        // The pipeline's decode and orientation step give what a direct decode of the bytes shows.
        #expect(first.pixels == (try Image(data: Data(bytes))).applyingOrientation().pixels)
        #expect(server.requestCount("/photo") == 1)
        #expect(pipeline.statistics.decodes == 1)

        // The same request again: the memory cache answers, no request and no decode.
        let second = try await pipeline.image(for: request)
        #expect(second.pixels == first.pixels && second.width == first.width)
        #expect(pipeline.statistics.memoryHits == 1 && pipeline.statistics.decodes == 1)
        #expect(server.requestCount("/photo") == 1)

        // A new pipeline over the same folder: the stored bytes are decoded again, nothing is fetched.
        let fresh = PipelineFixture.pipeline(client: client, dataCache: try DataCache(directory: folder.url))
        let third = try await fresh.image(for: request)
        #expect(third.pixels == first.pixels && third.width == first.width && third.height == first.height)
        #expect(fresh.statistics.diskHits == 1 && fresh.statistics.networkRequests == 0)
        #expect(server.requestCount("/photo") == 1)
    }
}
