import Foundation

/// Carries out one ``TestRoute`` for one request over a connection, and records how it ended.
///
/// A response is counted complete just *before* its last bytes are sent, so a test that has read the
/// whole response already sees it counted; if that last send fails, the count moves to aborted.
struct RouteResponder: Sendable {
    /// The connection to answer on.
    let socket: ConnectionSocket
    /// Where completed and aborted responses are counted.
    let core: ServerCore
    /// The request being answered.
    let request: RecordedRequest
    /// The request's 1-based position among requests to its path (what `failFirst` counts).
    let requestIndex: Int

    /// The answer for paths with no route.
    ///
    /// Computed, not a stored global: LeakSanitizer cannot see the tagged pointer a stored enum global
    /// keeps its payload behind and would report the payload as leaked.
    static var notFound: TestRoute { .text("Not Found", status: 404) }

    /// Sends the response `route` describes and reports how it ended.
    func respond(_ route: TestRoute) -> ResponseOutcome {
        switch route {
        case .respond(let status, let headers, let body):
            return sendWhole(ResponseHead(status: status, headers: headers), body: body)
        case .text(let text, let status, let contentType):
            return sendWhole(
                ResponseHead(status: status, headers: ["Content-Type": contentType]), body: Array(text.utf8))
        case .json(let text, let status):
            return sendWhole(
                ResponseHead(status: status, headers: ["Content-Type": "application/json"]), body: Array(text.utf8))
        case .delayHeaders(let seconds, let next):
            let paused = socket.pause(seconds: seconds)
            return paused == .finished ? respond(next) : unfinished(paused)
        case .trickle(let body, let chunkSize, let interval, let headers):
            return trickle(body, chunkSize: chunkSize, interval: interval, headers: headers)
        case .chunked(let chunks, let headers):
            return sendChunked(chunks, headers: headers)
        case .truncated(let body, let declaredLength):
            var head = ResponseHead(status: 200, headers: ["Content-Length": String(declaredLength)])
            head.addIfAbsent("Connection", "close")
            return sendLast(head.serialized + body.prefix(declaredLength), then: .close)
        case .reset:
            core.state.withLock { $0.records[request.path, default: .init()].completedResponses += 1 }
            return .completed(then: .reset)
        case .redirect(let location, let status):
            return sendWhole(ResponseHead(status: status, headers: ["Location": location]), body: [])
        case .retryAfter(let status, let value):
            return sendWhole(ResponseHead(status: status, headers: ["Retry-After": value]), body: [])
        case .failFirst(let failures, let status, let next):
            guard requestIndex <= failures else { return respond(next) }
            return sendWhole(ResponseHead(status: status), body: [])
        case .endless(let chunkSize):
            return sendEndless(chunkSize: chunkSize)
        case .headersForever:
            return sendHeadersForever()
        case .conditional(let body, let etag, let lastModified, let headers):
            var validators: [String: String] = [:]
            if let etag { validators["ETag"] = etag }
            if let lastModified { validators["Last-Modified"] = lastModified }
            if Self.isNotModified(request, etag: etag, lastModified: lastModified) {
                return sendWhole(ResponseHead(status: 304, headers: validators), body: [])
            }
            return sendWhole(
                ResponseHead(status: 200, headers: headers.merging(validators) { _, validator in validator }),
                body: body)
        case .handler(let decide):
            return respond(decide(request))
        }
    }

    /// Whether `request` is conditional on the representation with `etag` and `lastModified` and it matches
    /// (RFC 9110 13.2.2: `If-None-Match` first, with the weak comparison; `If-Modified-Since` only without it).
    static func isNotModified(_ request: RecordedRequest, etag: String?, lastModified: String?) -> Bool {
        if let noneMatch = request.header("If-None-Match") {
            guard let etag else { return false }
            let weak = { (tag: Substring) in tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
            return noneMatch.split(separator: ",").contains { listed in
                let tag = listed.trimmingCharacters(in: .whitespaces)[...]
                return tag == "*" || weak(tag) == weak(etag[...])
            }
        }
        guard let since = request.header("If-Modified-Since"), let lastModified else { return false }
        return since.trimmingCharacters(in: .whitespaces) == lastModified
    }

    /// Whether the connection closes after this response: the client asked, or the route's headers say so.
    private func closes(_ head: ResponseHead) -> Bool {
        !request.wantsKeepAlive
            || head.fields.contains { $0.name.lowercased() == "connection" && $0.value.lowercased().contains("close") }
    }

    private func sendWhole(_ head: ResponseHead, body: [UInt8]) -> ResponseOutcome {
        var head = head
        head.addIfAbsent("Content-Length", String(body.count))
        let closing = closes(head)
        if closing { head.addIfAbsent("Connection", "close") }
        // A HEAD response carries the GET headers but never a body.
        let bytes = request.method == "HEAD" ? head.serialized : head.serialized + body
        return sendLast(bytes, then: closing ? .close : .keepOpen)
    }

    private func trickle(_ body: [UInt8], chunkSize: Int, interval: Double, headers: [String: String])
        -> ResponseOutcome
    {
        var head = ResponseHead(status: 200, headers: headers)
        head.addIfAbsent("Content-Length", String(body.count))
        let closing = closes(head)
        if closing { head.addIfAbsent("Connection", "close") }
        let step = max(1, chunkSize)
        let pieces = stride(from: 0, to: body.count, by: step).map { Array(body[$0..<min(body.count, $0 + step)]) }
        let fate: ConnectionFate = closing ? .close : .keepOpen
        guard let lastPiece = pieces.last else { return sendLast(head.serialized, then: fate) }
        var result = send(head.serialized)
        for piece in pieces.dropLast() where result == .finished {
            result = send(piece)
            if result == .finished { result = socket.pause(seconds: interval) }
        }
        return result == .finished ? sendLast(lastPiece, then: fate) : unfinished(result)
    }

    private func sendChunked(_ chunks: [[UInt8]], headers: [String: String]) -> ResponseOutcome {
        var head = ResponseHead(status: 200, headers: headers)
        head.addIfAbsent("Transfer-Encoding", "chunked")
        let closing = closes(head)
        if closing { head.addIfAbsent("Connection", "close") }
        var result = send(head.serialized)
        // An empty chunk would end the body early, so empty elements are skipped.
        for chunk in chunks where !chunk.isEmpty && result == .finished {
            result = send(Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10])
        }
        guard result == .finished else { return unfinished(result) }
        return sendLast(Array("0\r\n\r\n".utf8), then: closing ? .close : .keepOpen)
    }

    private func sendEndless(chunkSize: Int) -> ResponseOutcome {
        // No length and no chunking: the body ends only when the connection does, so it must close.
        let head = ResponseHead(
            status: 200, headers: ["Content-Type": "application/octet-stream", "Connection": "close"])
        var result = send(head.serialized)
        let zeros = [UInt8](repeating: 0, count: max(1, chunkSize))
        while result == .finished { result = send(zeros) }
        return unfinished(result)
    }

    private func sendHeadersForever() -> ResponseOutcome {
        var result = send(Array("HTTP/1.1 200 OK\r\n".utf8))
        var line = 0
        while result == .finished {
            line += 1
            result = send(Array("X-Filler-\(line): \(String(repeating: "x", count: 100))\r\n".utf8))
        }
        return unfinished(result)
    }

    private func send(_ bytes: [UInt8]) -> ConnectionSocket.TransferResult {
        socket.send(bytes)
    }

    /// Sends the final bytes of a response, counting it complete first (see the type's documentation).
    private func sendLast(_ bytes: [UInt8], then fate: ConnectionFate) -> ResponseOutcome {
        core.state.withLock { $0.records[request.path, default: .init()].completedResponses += 1 }
        let result = send(bytes)
        guard result == .finished else {
            core.state.withLock { $0.records[request.path, default: .init()].completedResponses -= 1 }
            return unfinished(result)
        }
        return .completed(then: fate)
    }

    /// Records and returns the outcome of a transfer that did not finish.
    private func unfinished(_ result: ConnectionSocket.TransferResult) -> ResponseOutcome {
        switch result {
        case .finished, .stopped:
            return .stoppedByServer
        case .peerClosed:
            core.state.withLock { $0.records[request.path, default: .init()].abortedResponses += 1 }
            return .abortedByPeer
        }
    }
}
