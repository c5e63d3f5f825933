/// Everything the server's threads share, kept behind one `Locked` in ``ServerCore``.
struct ServerState: Sendable {
    /// What the server saw and did for one path.
    struct PathRecord: Sendable {
        /// Requests in arrival order.
        var requests: [RecordedRequest] = []
        /// Responses sent in full (or, for `truncated` and `reset`, carried out as asked).
        var completedResponses = 0
        /// Responses cut off because the client went away.
        var abortedResponses = 0
    }

    /// Routes by exact path.
    var routes: [String: TestRoute] = [:]
    /// Records by path, including paths with no route (answered 404).
    var records: [String: PathRecord] = [:]
    /// Connections accepted since the start.
    var connectionCount = 0
    /// Set once by `stop()`; no connection is accepted afterwards.
    var isStopped = false

    /// Records `request` and returns its 1-based position among requests to its path.
    mutating func record(_ request: RecordedRequest) -> Int {
        records[request.path, default: PathRecord()].requests.append(request)
        return records[request.path, default: PathRecord()].requests.count
    }
}

/// How sending one response ended.
enum ResponseOutcome: Sendable, Hashable {
    /// The route was carried out; `then` says what becomes of the connection.
    case completed(then: ConnectionFate)
    /// Sending failed because the client closed or reset the connection.
    case abortedByPeer
    /// The server was stopped before the response finished.
    case stoppedByServer
}

/// What happens to a connection after a completed response.
enum ConnectionFate: Sendable, Hashable {
    /// It may serve another request.
    case keepOpen
    /// It is closed with a FIN, after the client has had the chance to read everything.
    case close
    /// It is aborted with a TCP RST.
    case reset
}
