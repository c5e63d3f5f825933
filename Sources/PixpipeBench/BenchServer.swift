import Foundation
import Pixpipe
import PixpipeTestSupport

/// The input files served over HTTP by the in-process test server, for the pipeline rows.
///
/// In-process, so a row needs no nginx; the server's threads then share the machine with the pipeline,
/// which the rows' numbers include (the same for every run, so comparisons between them hold).
struct BenchServer {
    let server: TestHTTPServer
    let bodies: [[UInt8]]

    /// A server for the bytes of `files`.
    init(files: [String]) throws(BenchError) {
        var bodies: [[UInt8]] = []
        for path in files {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .unreadable(path: path, reason: "cannot read the file")
            }
            bodies.append([UInt8](data))
        }
        self.bodies = bodies
        do {
            server = try TestHTTPServer()
        } catch {
            throw .pipeline("cannot start the test server: \(error)")
        }
    }

    /// Routes `count` paths (`/image/0` ...), each answering one file's bytes round-robin with `headers`,
    /// and returns their URLs.
    func serve(count: Int, prefix: String = "image", headers: [String: String]) -> [URL] {
        (0..<count).map { index in
            let path = "/\(prefix)/\(index)"
            server.route(path, .respond(headers: headers, body: bodies[index % bodies.count]))
            return server.url(path)
        }
    }

    /// Requests the server received for `urls`.
    func requestCount(_ urls: [URL]) -> Int {
        urls.reduce(0) { $0 + server.requestCount($1.path) }
    }

    /// A client that never retries (so requests are counted exactly), six connections.
    static func client() -> HTTPClient {
        HTTPClient(configuration: .init(maxConcurrentRequests: 6, retryPolicy: RetryPolicy.none))
    }
}
