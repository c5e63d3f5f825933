import Foundation
import PixpipeLocking
import PixpipeTestSupport
import Testing

@testable import PixpipeHTTP

/// Refuses bodies whose response carries a `X-Refuse` header, and keeps the heads it saw.
private final class RefusingInspector: ResponseHeadInspector {
    let heads = Locked<[ResponseMetadata]>([])
    let chunks = Locked(0)

    func acceptsBody(of head: ResponseMetadata) -> Bool {
        heads.withLock { $0.append(head) }
        return head.headers["X-Refuse"] == nil
    }

    func begin() {}

    func observe(_ chunk: UnsafeRawBufferPointer) { chunks.withLock { $0 += 1 } }
}

/// A head inspector sees the final response's head and may refuse its body: with curl the transfer stops
/// there, with every transport the request fails as cancelled and the body is never shown.
@Suite("Response head inspectors")
struct HeadInspectorTests {
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
    }

    private func client(_ kind: HTTPTransportKind) -> HTTPClient {
        HTTPClient(
            configuration: .init(baseURL: server.baseURL, timeout: .seconds(30), retryPolicy: .none),
            transport: kind.makeTransport(maxConnectionsPerHost: 2))
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func refusedBodyFailsAsCancelled(kind: HTTPTransportKind) async throws {
        server.route("/refused", .respond(headers: ["X-Refuse": "yes"], body: [UInt8](repeating: 1, count: 1000)))
        server.route("/hop", .redirect(to: "/refused"))
        let inspector = RefusingInspector()
        var request = Request<Data>(path: "/hop")
        request.bodyObserver = inspector
        do throws(HTTPError) {
            let data = try await client(kind).send(request)
            Issue.record("expected a cancellation, got \(data.count) bytes")
        } catch {
            guard case .cancelled = error else {
                Issue.record("expected a cancellation, got \(error)")
                return
            }
        }
        // Only the final head is shown (the redirect's never is), and no body chunk.
        #expect(inspector.heads.withLock { $0.map(\.statusCode) } == [200])
        #expect(inspector.chunks.withLock { $0 } == 0)
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func acceptedBodyIsShownAndReturned(kind: HTTPTransportKind) async throws {
        server.route("/fine", .respond(body: [UInt8](repeating: 2, count: 1000)))
        let inspector = RefusingInspector()
        var request = Request<Data>(path: "/fine")
        request.bodyObserver = inspector
        let data = try await client(kind).send(request)
        #expect(data.count == 1000)
        #expect(inspector.chunks.withLock { $0 } >= 1)
    }

    @Test("With curl the transfer stops at the head: a 32 MB body is never sent in full")
    func curlStopsAtTheHead() async throws {
        server.route("/huge", .respond(headers: ["X-Refuse": "yes"], body: [UInt8](repeating: 0, count: 32 << 20)))
        var request = Request<Data>(path: "/huge")
        request.bodyObserver = RefusingInspector()
        request.maxBodyBytes = 64 << 20
        _ = try? await client(.curl).send(request)
        #expect(await server.waitForAbortedResponse("/huge", timeout: 30))
        #expect(server.completedResponses("/huge") == 0)
    }
}
