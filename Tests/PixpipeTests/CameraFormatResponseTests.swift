import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

extension SocketTests {
    /// HEIC, JPEG XL and TIFF photos fetched with `Request<Image>` over a real socket: decoded, turned upright
    /// as the CLI shows them, and compared with the corpora's reference samples; a damaged file of each is a
    /// typed decode failure.
    @Suite(
        "Camera formats through Request<Image>", .enabled(if: CameraCorpus.isAvailable, "PIXPIPE_CORPORA is not set"))
    struct CameraFormatResponseTests {
        let server: TestHTTPServer
        let client: HTTPClient

        init() throws {
            server = try TestHTTPServer()
            client = HTTPClient(
                configuration: .init(baseURL: server.baseURL, timeout: .seconds(30), retryPolicy: .none))
        }

        @Test(
            "A camera photo is fetched, decoded and shown upright with the reference samples",
            arguments: CameraCorpus.orientedSamples)
        func photoMatchesReference(_ sample: CameraCorpus.Sample) async throws {
            let bytes = try sample.bytes()
            let reference = try sample.reference()
            let format = try #require(ImageFormat(name: sample.folder))
            let mediaType = format.mediaTypes.first ?? "application/octet-stream"
            server.route("/photo", .respond(headers: ["Content-Type": mediaType], body: bytes))

            let image = try await client.send(Request<Image>(path: "/photo"))

            #expect(image.metadata.sourceFormat == format)
            // The CLI's convert and thumbnail show `applyingOrientation()`: what a viewer shows.
            let upright = image.applyingOrientation()
            #expect(upright.width == reference.width && upright.height == reference.height)
            if sample.hasPortableSamples {
                #expect(CameraSampleDigest.sha256(upright, channels: reference.channels) == reference.sha256)
            }
            // The socket changes nothing: the same bytes decoded from memory give the same pixels.
            #expect(upright.pixels == (try Image(data: Data(bytes))).applyingOrientation().pixels)
            #expect(server.requestCount("/photo") == 1)
        }

        @Test(
            "A truncated camera file is a typed decode failure naming its format",
            arguments: CameraCorpus.truncatedSamples)
        func truncatedFileIsTypedFailure(_ sample: CameraCorpus.Sample) async throws {
            #expect(try sample.reference().sha256 == "error")
            let format = try #require(ImageFormat(name: sample.folder))
            server.route("/cut", .respond(body: try sample.bytes()))
            let url = server.url("/cut")

            let error = await #expect(throws: ImageLoadError.self) { try await client.image(for: url) }
            guard case .decoding(let decoding, let failedURL) = error else {
                Issue.record("expected .decoding, got \(String(describing: error))")
                return
            }
            #expect(failedURL == url)
            switch decoding {
            case .truncated(let failed, _), .corrupt(let failed, _): #expect(failed == format)
            default: Issue.record("expected .truncated or .corrupt for \(format), got \(decoding)")
            }

            // `send` throws the same failure as the conversion's underlying error.
            let fetchError = await #expect(throws: HTTPError.self) { try await client.send(Request<Image>(url: url)) }
            #expect(fetchError.map { ImageLoadError($0) } == error)
        }
    }
}
