/// How the ``TestHTTPServer`` answers requests to one path.
///
/// ```swift
/// server.route("/photo.jpg", .respond(headers: ["Content-Type": "image/jpeg"], body: jpegBytes))
/// server.route("/flaky", .failFirst(2, then: .text("ok")))
/// server.route("/slow", .delayHeaders(seconds: 5, then: .text("late")))
/// server.route("/comic.png", .conditional(body: png, etag: "\"v1\"", lastModified: nil))   // 304 when asked
/// ```
public indirect enum TestRoute: Sendable {
    /// Sends `status`, `headers` and `body`; `Content-Length` is added unless `headers` already has one.
    case respond(status: Int = 200, headers: [String: String] = [:], body: [UInt8])
    /// Sends `String` as UTF-8 with the given `Content-Type`.
    case text(String, status: Int = 200, contentType: String = "text/plain; charset=utf-8")
    /// Sends `String` as `application/json`.
    case json(String, status: Int = 200)
    /// Waits `seconds` before sending anything, then answers as `then`; ends early on stop or disconnect.
    case delayHeaders(seconds: Double, then: TestRoute)
    /// Sends the full `Content-Length`, then the body `chunkSize` bytes at a time, `interval` seconds apart.
    case trickle(body: [UInt8], chunkSize: Int, interval: Double, headers: [String: String] = [:])
    /// Sends the body with `Transfer-Encoding: chunked`, one HTTP chunk per element (empty ones skipped).
    case chunked(chunks: [[UInt8]], headers: [String: String] = [:])
    /// Declares `Content-Length: declaredLength`, sends only `body`, then closes the connection.
    case truncated(body: [UInt8], declaredLength: Int)
    /// Reads the request, then aborts the connection with a TCP RST (`SO_LINGER` 0) without answering.
    case reset
    /// Answers `status` with `Location: to`, sent exactly as given (absolute URL or path).
    case redirect(to: String, status: Int = 302)
    /// Answers `status` with a `Retry-After` header carrying exactly `value` (seconds or an HTTP date).
    case retryAfter(status: Int = 503, value: String)
    /// Answers the first `Int` requests to this path with `status` (empty body), later ones as `then`.
    case failFirst(Int, status: Int = 503, then: TestRoute)
    /// Streams zero bytes `chunkSize` at a time, with no `Content-Length`, until the client leaves or stop.
    case endless(chunkSize: Int = 16384)
    /// Sends a status line and then header lines forever, never ending the response head.
    case headersForever
    /// Sends `body` with `ETag` and `Last-Modified` (each when given) and `headers`, or an empty `304` with
    /// the validators when the request's `If-None-Match` lists `etag` (or `*`; weak tags compare weakly), or,
    /// without `If-None-Match`, its `If-Modified-Since` is exactly `lastModified` (clients send back the date
    /// they got).
    case conditional(body: [UInt8], etag: String?, lastModified: String?, headers: [String: String] = [:])
    /// Calls the closure for each request and answers as it says; it runs on a connection thread.
    case handler(@Sendable (RecordedRequest) -> TestRoute)
}
