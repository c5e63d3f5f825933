/// Serves one connection: reads requests in order, answers each by its route, until the connection ends.
struct ConnectionHandler: Sendable {
    /// The accepted connection, owned (and closed) by this handler.
    let socket: ConnectionSocket
    /// Where routes are looked up and what was seen is recorded.
    let core: ServerCore

    private enum NextRequest {
        case request(RecordedRequest)
        case invalid(HTTPRequestParseError)
        case connectionEnded
    }

    /// Runs until the client leaves, a response closes the connection, or the server stops; then closes it.
    func run() {
        var parser = HTTPRequestParser()
        var fate = ConnectionFate.close
        defer {
            switch fate {
            case .reset: socket.closeWithReset()
            case .close, .keepOpen: socket.closeGracefully()
            }
        }
        while true {
            switch nextRequest(from: &parser) {
            case .connectionEnded:
                return
            case .invalid(let error):
                let head = ResponseHead(status: error.responseStatus, headers: ["Content-Length": "0", "Connection": "close"])
                _ = socket.send(head.serialized)
                return
            case .request(let request):
                let outcome = answer(request)
                guard case .completed(let then) = outcome, then == .keepOpen else {
                    if case .completed(let then) = outcome { fate = then }
                    return
                }
            }
        }
    }

    private func nextRequest(from parser: inout HTTPRequestParser) -> NextRequest {
        while true {
            do {
                if let request = try parser.nextRequest() { return .request(request) }
            } catch {
                return .invalid(error)
            }
            switch socket.receive() {
            case .bytes(let bytes): parser.append(bytes)
            case .peerClosed, .stopped: return .connectionEnded
            }
        }
    }

    private func answer(_ request: RecordedRequest) -> ResponseOutcome {
        let (index, route) = core.state.withLock { state in
            (state.record(request), state.routes[request.path])
        }
        // The route runs outside the lock: it may sleep, stream forever, or call a test's closure.
        let responder = RouteResponder(socket: socket, request: request, requestIndex: index)
        let outcome = responder.respond(route ?? RouteResponder.notFound)
        core.state.withLock { $0.record(outcome, for: request.path) }
        return outcome
    }
}
