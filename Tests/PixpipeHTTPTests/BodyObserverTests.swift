import Foundation
import PixpipeLocking
import PixpipeTestSupport
import Testing

@testable import PixpipeHTTP

/// Records every body it is shown, so a test can compare it with the body returned.
private final class RecordingObserver: ResponseBodyObserver {
    let bodies = Locked<[[UInt8]]>([])

    func begin() { bodies.withLock { $0.append([]) } }

    func observe(_ chunk: UnsafeRawBufferPointer) {
        bodies.withLock { bodies in bodies[bodies.count - 1].append(contentsOf: chunk) }
    }
}

/// A request's body observer sees exactly the body returned, with every transport: as it streams with
/// curl, at the end with URLSession; each attempt starts again, and redirect bodies are never shown.
@Suite("Response body observers")
struct BodyObserverTests {
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
    }

    private func client(_ kind: HTTPTransportKind, attempts: Int = 1) -> HTTPClient {
        HTTPClient(
            configuration: .init(
                baseURL: server.baseURL, timeout: .seconds(5),
                retryPolicy: RetryPolicy(maxAttempts: attempts, baseDelay: .milliseconds(5))),
            transport: kind.makeTransport(maxConnectionsPerHost: 2))
    }

    /// 300 KB of varied bytes: many chunks for the streaming transport.
    private static let body: [UInt8] = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }

    @Test(arguments: HTTPTransportKind.allCases)
    func seesExactlyTheReturnedBody(kind: HTTPTransportKind) async throws {
        server.route("/big", .respond(body: Self.body))
        let observer = RecordingObserver()
        var request = Request<Data>(path: "/big")
        request.bodyObserver = observer
        let data = try await client(kind).send(request)
        #expect(data == Data(Self.body))
        #expect(observer.bodies.withLock { $0 } == [Self.body])
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func eachAttemptBeginsAgainAndRedirectBodiesAreNotShown(kind: HTTPTransportKind) async throws {
        server.route("/flaky", .failFirst(1, status: 503, then: .respond(body: Self.body)))
        server.route("/hop", .redirect(to: "/flaky"))
        let observer = RecordingObserver()
        var request = Request<Data>(path: "/hop")
        request.bodyObserver = observer
        let data = try await client(kind, attempts: 3).send(request)
        #expect(data == Data(Self.body))
        let bodies = observer.bodies.withLock { $0 }
        #expect(bodies.count == 2)
        #expect(bodies.last == Self.body)
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func aChunkedBodyIsSeenWhole(kind: HTTPTransportKind) async throws {
        let chunks = stride(from: 0, to: Self.body.count, by: 70_000).map {
            Array(Self.body[$0..<min($0 + 70_000, Self.body.count)])
        }
        server.route("/chunked", .chunked(chunks: chunks))
        let observer = RecordingObserver()
        var request = Request<Data>(path: "/chunked")
        request.bodyObserver = observer
        _ = try await client(kind).send(request)
        #expect(observer.bodies.withLock { $0 } == [Self.body])
    }
}
