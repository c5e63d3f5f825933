/// One line of an ``NginxTLSServer``'s access log: which connection served which request, and how.
public struct NginxAccessLogEntry: Sendable, Hashable {
    /// nginx's serial number of the connection; requests multiplexed on one connection share it.
    public var connection: Int
    /// The port that received the request (the HTTPS or the plain HTTP server).
    public var port: Int
    /// The protocol of the request, such as `HTTP/2.0` or `HTTP/1.1`.
    public var httpProtocol: String
    /// The status nginx answered.
    public var status: Int
    /// The path and query as requested.
    public var uri: String

    /// Parses a line written with ``NginxConfiguration/accessLogFormat``; nil when it does not match.
    init?(line: Substring) {
        let fields = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: true)
        guard fields.count == 5, let connection = Int(fields[0]), let port = Int(fields[1]),
            let status = Int(fields[3])
        else { return nil }
        self.connection = connection
        self.port = port
        self.httpProtocol = String(fields[2])
        self.status = status
        self.uri = String(fields[4])
    }
}
