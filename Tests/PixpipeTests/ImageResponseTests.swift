import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

extension SocketTests {
    /// `Request<Image>` over a real socket for every format the codec table decodes: the body is sniffed, so
    /// no media type (not even a wrong one) keeps a decodable image out.
    @Suite("Image responses in every decodable format")
    struct ImageResponseTests {
        let server: TestHTTPServer
        let client: HTTPClient

        init() throws {
            server = try TestHTTPServer()
            client = HTTPClient(configuration: .init(baseURL: server.baseURL, timeout: .seconds(5), retryPolicy: .none))
        }

        /// A 1x1 GIF of two frames, white then black, 0.1 s each, looping forever.
        static let twoFrameGIF: [UInt8] = {
            var bytes = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
            bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
            // Each frame: a 0.1 s graphic control, a 1x1 image, LZW code size 2 with codes clear, index, end.
            for data in [[0x4C, 0x01], [0x44, 0x01]] as [[UInt8]] {
                bytes += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]
                bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2] + data + [0]
            }
            return bytes + [0x3B]
        }()

        @Test func everyCodecsMediaTypeIsAcceptedByDefault() {
            // `nil` accepts any type; a list, if one is ever set, must name every decodable format's types.
            let accepted = Request<Image>(path: "/any").acceptableContentTypes
            // The built-in decoders of the table: codecs other tests register at run time have no media types.
            let registered = Set(ImageCodecs.registeredFormats)
            let builtIn = ImageFormat.all.filter { $0.canDecode && !registered.contains($0) }
            #expect(builtIn.contains(.png) && builtIn.contains(.jpeg))
            for format in builtIn {
                #expect(format.canDecode, "\(format)")
                #expect(!format.mediaTypes.isEmpty, "\(format)")
                for mediaType in format.mediaTypes {
                    #expect(accepted.map { $0.contains(mediaType) || $0.contains("image/*") } ?? true, "\(mediaType)")
                }
            }
        }

        @Test func webPIsFetchedAsAnImage() async throws {
            let original = Image(width: 8, height: 4, pixelFormat: .rgba8, pixels: (0..<128).map { UInt8($0 * 2) })
            let webp = try original.encoded(as: .webpLossless)
            server.route("/panel.webp", .respond(headers: ["Content-Type": "image/webp"], body: Array(webp)))
            let image = try await client.send(Request<Image>(path: "/panel.webp"))
            #expect(image.metadata.sourceFormat == .webp)
            #expect(image.width == 8 && image.height == 4)
            #expect(image.pixels == original.pixels)
        }

        @Test func gifIsFetchedAsItsFirstFrame() async throws {
            server.route("/anim.gif", .respond(headers: ["Content-Type": "image/gif"], body: Self.twoFrameGIF))
            let image = try await client.send(Request<Image>(path: "/anim.gif"))
            #expect(image.metadata.sourceFormat == .gif)
            #expect(image.width == 1 && image.height == 1)
            #expect(image.pixels == [255, 255, 255, 255])
            let frames = try AnimationReader(data: Data(Self.twoFrameGIF)).allFrames()
            #expect(frames.map { $0.image.pixels } == [[255, 255, 255, 255], [0, 0, 0, 255]])
        }

        @Test func theBytesDecideNotTheMediaType() async throws {
            server.route(
                "/download", .respond(headers: ["Content-Type": "application/octet-stream"], body: Self.twoFrameGIF))
            let image = try await client.send(Request<Image>(path: "/download"))
            #expect(image.metadata.sourceFormat == .gif)
        }
    }
}
