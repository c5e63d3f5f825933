/// Assembles response heads from the header lines libcurl hands over, one per call.
///
/// libcurl calls the header callback for every hop: 1xx interim responses, each followed
/// redirect and the final response. Each status line starts a fresh head, so only the last
/// block's headers survive; the blank line that ends a block says which kind it was.
struct CurlResponseHeadParser: Sendable {
    /// What one header line completed.
    enum Event: Sendable, Hashable {
        /// The line was part of a block that is not finished.
        case none
        /// A 1xx block ended; the real response follows.
        case interim
        /// A block ended with this status and headers.
        case complete(CurlResponseHead)
        /// The line is not a valid header line.
        case malformed
    }

    private var statusCode: Int?
    private var httpVersion = ""
    private var headers: [CurlHeaderField] = []

    /// A parser waiting for the first status line.
    init() {}

    /// Consumes one raw line, including its line ending.
    mutating func consume(_ rawLine: Substring) -> Event {
        let line = rawLine.trimmingSuffix { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        if line.isEmpty { return endOfBlock() }
        if line.hasPrefix("HTTP/") { return startBlock(line) }
        guard statusCode != nil else { return .malformed }
        if let first = line.first, first == " " || first == "\t" {
            // Obsolete line folding: continue the previous value.
            guard let last = headers.indices.last else { return .malformed }
            headers[last].value += " " + line.trimmingWhitespace()
            return .none
        }
        guard let colon = line.firstIndex(of: ":") else { return .malformed }
        let name = String(line[..<colon])
        let value = line[line.index(after: colon)...].trimmingWhitespace()
        headers.append(CurlHeaderField(name: name, value: value))
        return .none
    }

    private mutating func startBlock(_ line: Substring) -> Event {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, let code = Int(parts[1]), (100...999).contains(code) else { return .malformed }
        statusCode = code
        httpVersion = String(parts[0])
        headers = []
        return .none
    }

    private mutating func endOfBlock() -> Event {
        guard let code = statusCode else { return .malformed }
        statusCode = nil
        if (100..<200).contains(code) { return .interim }
        return .complete(CurlResponseHead(statusCode: code, httpVersion: httpVersion, headers: headers))
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }

    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).trimmingSuffix(while: isSpace))
    }
}
