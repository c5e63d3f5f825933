import Foundation
import PixpipeHTTP
import PixpipeTestSupport
import Testing

extension SocketTests {
    @Suite("Body cap, progress and redirects against a real socket")
    struct TransportLimitTests {
        let server: TestHTTPServer
        let client: HTTPClient

        init() throws {
            server = try TestHTTPServer()
            client = HTTPClient(configuration: .init(baseURL: server.baseURL, timeout: .seconds(5), retryPolicy: .none))
        }

        @Test func bodyOverTheCapByContentLengthIsRefusedUpFront() async throws {
            server.route("/big", .respond(body: [UInt8](repeating: 7, count: 100_000)))
            var request = Request<Data>(path: "/big")
            request.maxBodyBytes = 1000
            await #expect(throws: HTTPError.bodyTooLarge(limit: 1000, url: server.url("/big"))) {
                try await client.send(request)
            }
        }

        @Test func chunkedBodyOverTheCapIsCutWhileStreaming() async throws {
            let chunks = [[UInt8]](repeating: [UInt8](repeating: 1, count: 4096), count: 8)
            server.route("/chunked", .chunked(chunks: chunks))
            var request = Request<Data>(path: "/chunked")
            request.maxBodyBytes = 10_000
            await #expect(throws: HTTPError.bodyTooLarge(limit: 10_000, url: server.url("/chunked"))) {
                try await client.send(request)
            }
            request.maxBodyBytes = 32_768
            #expect(try await client.send(request).count == 32_768)
        }

        @Test func endlessBodyIsCutAndTheServerSeesTheAbort() async throws {
            server.route("/endless", .endless(chunkSize: 4096))
            var request = Request<Data>(path: "/endless")
            request.maxBodyBytes = 100_000
            await #expect(throws: HTTPError.bodyTooLarge(limit: 100_000, url: server.url("/endless"))) {
                try await client.send(request)
            }
            #expect(await server.waitForAbortedResponse("/endless", timeout: 5))
        }

        @Test func truncatedBodyIsATransportError() async throws {
            server.route("/short", .truncated(body: [UInt8](repeating: 1, count: 10), declaredLength: 1000))
            let error = await #expect(throws: HTTPError.self) { try await client.send(Request<Data>(path: "/short")) }
            guard case .transport(_, _, let url) = error else {
                Issue.record("expected a transport error, got \(String(describing: error))")
                return
            }
            #expect(url == server.url("/short"))
        }

        @Test func progressReportsBytesReceivedAndExpected() async throws {
            let body = [UInt8](repeating: 3, count: 4000)
            server.route("/trickle", .trickle(body: body, chunkSize: 1000, interval: 0.05))
            let task = client.task(for: Request<Data>(path: "/trickle"))
            var updates: [TransferProgress] = []
            for await update in task.progress { updates.append(update) }
            #expect(try await task.value.count == 4000)
            #expect(updates.count >= 2)
            #expect(updates.last == TransferProgress(bytesReceived: 4000, bytesExpected: 4000))
            #expect(updates.map(\.bytesReceived) == updates.map(\.bytesReceived).sorted())
        }

        @Test func progressCallbackSeesEveryByte() async throws {
            server.route("/chunked", .chunked(chunks: [[1, 2, 3], [4, 5], [6]]))
            let seen = Recorder<TransferProgress>()
            var request = Request<Data>(path: "/chunked")
            request.onProgress = { update in seen.append(update) }
            _ = try await client.send(request)
            #expect(seen.all.last == TransferProgress(bytesReceived: 6, bytesExpected: nil))
        }

        @Test func redirectChainIsFollowedToTheFinalURL() async throws {
            server.route("/a", .redirect(to: "/b"))
            server.route("/b", .redirect(to: server.url("/c").absoluteString, status: 301))
            server.route("/c", .text("arrived"))
            let response = try await client.response(for: Request<String>(path: "/a"))
            #expect(response.value == "arrived")
            #expect(response.url == server.url("/c"))
        }

        @Test func redirectLoopFailsWithTooManyRedirects() async throws {
            server.route("/loop", .redirect(to: "/loop"))
            let error = await #expect(throws: HTTPError.self) { try await client.send(Request<String>(path: "/loop")) }
            guard case .tooManyRedirects(let limit, _) = error else {
                Issue.record("expected tooManyRedirects, got \(String(describing: error))")
                return
            }
            #expect(limit == 10)
            #expect(server.requestCount("/loop") == 11)
        }

        @Test func redirectLimitIsPerRequest() async throws {
            for index in 0..<3 { server.route("/r\(index)", .redirect(to: "/r\(index + 1)")) }
            server.route("/r3", .text("end"))
            var request = Request<String>(path: "/r0")
            request.maxRedirects = 2
            let error = await #expect(throws: HTTPError.self) { try await client.send(request) }
            #expect(error.map { if case .tooManyRedirects(2, _) = $0 { true } else { false } } == true)
            request.maxRedirects = 3
            #expect(try await client.send(request) == "end")
        }

        @Test func redirectToAnotherSchemeIsRefused() async throws {
            server.route("/ftp", .redirect(to: "ftp://127.0.0.1/file"))
            let error = await #expect(throws: HTTPError.self) { try await client.send(Request<String>(path: "/ftp")) }
            #expect(error.map { if case .unsupportedScheme("ftp", _) = $0 { true } else { false } } == true)
        }
    }
}
