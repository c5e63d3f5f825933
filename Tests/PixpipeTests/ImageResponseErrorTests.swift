import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

extension SocketTests {
    /// What a caller of `Request<Image>` catches, over a real socket: typed decode failures (the pipeline's
    /// cases), an HTML page named as one, and error descriptions that stay one short line.
    @Suite("Image response errors")
    struct ImageResponseErrorTests {
        let server: TestHTTPServer
        let client: HTTPClient

        init() throws {
            server = try TestHTTPServer()
            client = HTTPClient(configuration: .init(baseURL: server.baseURL, timeout: .seconds(5), retryPolicy: .none))
        }

        /// A 13-line HTML page, as a web server's error handler writes one.
        static let errorPage = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>404 Not Found</title>
            <style>body { font-family: sans-serif; margin: 4em; color: #333; }</style>
            </head>
            <body>
            <h1>Not Found</h1>
            <p>The requested URL /covers/missing.png was not found on this server, nor anywhere else we looked.</p>
            <hr><address>Apache/2.4.62 (Debian) Server at images.example.com Port 443</address>
            </body>
            </html>
            """

        /// A PNG of noise, so that cutting it leaves too little for any row at the end.
        static func noisePNG() throws -> Data {
            var generator = SeededGenerator(seed: 31)
            let pixels = (0..<(64 * 64 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            return try Image(width: 64, height: 64, pixelFormat: .rgb8, pixels: pixels).encoded(as: .png)
        }

        @Test("A 404 with a 13-line HTML body: a one-line description, the longer excerpt on the error")
        func notFoundIsOneLine() async throws {
            #expect(Self.errorPage.split(separator: "\n").count == 13)
            server.route("/covers/missing.png", .text(Self.errorPage, status: 404, contentType: "text/html"))

            let error = await #expect(throws: HTTPError.self) {
                try await client.send(Request<Image>(path: "/covers/missing.png"))
            }

            let description = try #require(error?.description)
            #expect(!description.contains("\n") && !description.contains("\r"))
            #expect(description.hasPrefix("\(server.url("/covers/missing.png").absoluteString) answered HTTP 404: "))
            let shownExcerpt = try #require(description.split(separator: ": ", maxSplits: 1).last)
            #expect(shownExcerpt.count <= HTTPError.descriptionExcerptLength)
            #expect(shownExcerpt.hasPrefix("<!DOCTYPE html> <html lang=\"en\"> <head>"))
            let excerpt = try #require(error?.bodyExcerpt)
            #expect(
                excerpt.count > HTTPError.descriptionExcerptLength && excerpt.count <= HTTPError.bodyExcerptLength)
            #expect(excerpt.contains("<title>404 Not Found</title>") && !excerpt.contains("\n"))
        }

        @Test("A truncated image is a typed decode failure, the same case the pipeline throws")
        func truncatedImageIsTypedDecodeFailure() async throws {
            let png = try Self.noisePNG()
            server.route(
                "/cut.png", .respond(headers: ["Content-Type": "image/png"], body: Array(png.prefix(png.count / 2))))
            let url = server.url("/cut.png")

            let error = await #expect(throws: ImageLoadError.self) { try await client.image(for: url) }
            guard case .decoding(.truncated(let format, _), let failedURL) = error else {
                Issue.record("expected .decoding(.truncated), got \(String(describing: error))")
                return
            }
            #expect(format == .png && failedURL == url)
            #expect(error?.shortName == "truncated-image")

            // The same failure through `send`, mapped into the pipeline's cases by the caller.
            let fetchError = await #expect(throws: HTTPError.self) { try await client.send(Request<Image>(url: url)) }
            #expect(fetchError.map { ImageLoadError($0) } == error)
        }

        @Test("An HTML page sent with 200 for Request<Image> is a typed error that names HTML")
        func htmlBodyIsNamed() async throws {
            let page = Self.errorPage.replacingOccurrences(of: "404 Not Found", with: "Sign in to Wi-Fi")
            server.route("/portal.png", .text(page, contentType: "text/html; charset=utf-8"))
            let url = server.url("/portal.png")

            let error = await #expect(throws: HTTPError.self) { try await client.send(Request<Image>(url: url)) }
            guard case .conversionFailed(.htmlPage(let title, let excerpt), url) = error else {
                Issue.record("expected .htmlPage, got \(String(describing: error))")
                return
            }
            #expect(title == "Sign in to Wi-Fi")
            #expect(excerpt.hasPrefix("<!DOCTYPE html>") && excerpt.count <= HTTPError.bodyExcerptLength)
            let description = try #require(error?.description)
            #expect(description.contains("HTML page titled \"Sign in to Wi-Fi\"") && !description.contains("\n"))
            #expect(error?.bodyExcerpt == excerpt)
            if case .conversionFailed(let conversion, _) = error { #expect(conversion.shortName == "html-page") }

            // Through the pipeline's cases it stays a fetch failure naming the page, not a decode failure.
            let typed = await #expect(throws: ImageLoadError.self) { try await client.image(for: url) }
            #expect(typed == .fetch(.conversionFailed(.htmlPage(title: title, excerpt: excerpt), url: url)))
        }

        @Test("An HTML page is known by its bytes under any label, and a JSON request gets the same error")
        func htmlKnownByItsBytes() async throws {
            server.route(
                "/file.bin",
                .text("\u{FEFF}\n  <html><body>gone</body></html>", contentType: "application/octet-stream"))
            let error = await #expect(throws: HTTPError.self) {
                try await client.send(Request<Image>(path: "/file.bin"))
            }
            #expect(
                error
                    == .conversionFailed(
                        .htmlPage(title: nil, excerpt: "<html><body>gone</body></html>"), url: server.url("/file.bin")))

            server.route("/api.json", .text(Self.errorPage, contentType: "text/html"))
            let jsonError = await #expect(throws: HTTPError.self) {
                try await client.send(Request<JSON>(path: "/api.json"))
            }
            guard case .conversionFailed(.htmlPage(let title, _), _) = jsonError else {
                Issue.record("expected .htmlPage, got \(String(describing: jsonError))")
                return
            }
            #expect(title == "404 Not Found")
        }

        @Test func imageConversionOfNonImageBytesFailsWithTheDecodingError() async throws {
            server.route("/photo.png", .respond(headers: ["Content-Type": "image/png"], body: Array("not a png".utf8)))
            let error = await #expect(throws: HTTPError.self) {
                try await client.send(Request<Image>(path: "/photo.png"))
            }
            guard case .conversionFailed(.underlying(let underlying), _) = error else {
                Issue.record("expected conversionFailed, got \(String(describing: error))")
                return
            }
            #expect(underlying as? ImageDecodingError == .unsupportedFormat(recognized: .text))
        }

        @Test("Bytes that are neither an image nor HTML stay an unsupported format")
        func otherBytesAreUnsupportedFormat() async throws {
            server.route("/notes.txt", .text("just some notes, <b>not</b> a page", contentType: "text/plain"))
            let url = server.url("/notes.txt")
            do {
                _ = try await client.image(for: url)
                Issue.record("an image from a text body")
            } catch .decoding(let error, _) {
                #expect(error.shortName == "not-an-image")
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
