import Foundation
import Testing

@testable import PixpipeHTTP

#if canImport(Glibc)
    import Glibc

    /// The curl transport's connect timeout, against a server that never completes a handshake.
    @Suite("Curl transport: connect timeout")
    struct ConnectTimeoutTests {
        @Test func connectTimeoutEndsAHandshakeThatNeverCompletes() async throws {
            let listener = try #require(UnacceptingListener())
            let url = try #require(URL(string: "http://127.0.0.1:\(listener.port)/never"))
            let transport = CurlTransport(connectTimeout: .milliseconds(300))
            let request = TransportRequest(
                url: url, method: .get, headers: [:], body: nil, maxBodyBytes: 1000, redirectPolicy: RedirectPolicy(),
                timeout: .seconds(20))
            let clock = ContinuousClock()
            let started = clock.now
            await #expect(throws: HTTPError.timedOut(after: .milliseconds(300), url: url)) {
                try await transport.perform(request) { _ in }
            }
            let elapsed = clock.now - started
            // Far below the 20 s deadline and Linux's own SYN retries (1 s, 3 s...): the connect timeout ended it
            // (the error above already says which timeout fired; sanitized code only gets more slack).
            let slack: Duration =
                ProcessInfo.processInfo.environment["PIXPIPE_SANITIZER"] == nil ? .milliseconds(900) : .seconds(5)
            // libcurl counts whole milliseconds and may give up up to 1 ms before the deadline.
            #expect(elapsed >= .milliseconds(299) && elapsed < slack, "took \(elapsed)")
        }
    }

    /// A socket on 127.0.0.1 that listens with the smallest backlog and never accepts.
    ///
    /// Once its accept queue holds one connection (made here), the kernel drops every further SYN, so a new
    /// client's connect neither succeeds nor fails: it waits for its own timeout.
    private final class UnacceptingListener {
        let port: UInt16
        private var descriptors: [Int32] = []

        init?() {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard listener >= 0 else { return nil }
            descriptors.append(listener)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
            }
            guard bound == 0, listen(listener, 0) == 0 else { return nil }
            var actual = sockaddr_in()
            var actualLength = length
            let named = withUnsafeMutablePointer(to: &actual) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &actualLength) }
            }
            guard named == 0 else { return nil }
            port = UInt16(bigEndian: actual.sin_port)
            // Fill the accept queue: the first connection completes and sits there unaccepted; the others
            // stay half-open. Non-blocking, so nothing here waits.
            var target = address
            target.sin_port = actual.sin_port
            for _ in 0..<3 {
                let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
                guard client >= 0 else { return nil }
                descriptors.append(client)
                _ = withUnsafePointer(to: &target) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) }
                }
            }
            // Let the first handshake finish so the queue is full before the test connects.
            usleep(50_000)
        }

        deinit {
            for descriptor in descriptors { close(descriptor) }
        }
    }
#endif
