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
        var line = String(rawLine)
        return line.withUTF8 { consume(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Consumes one raw line as libcurl hands it over, including its line ending.
    ///
    /// Works on the bytes: field names and the status line are ASCII, and going through `Character`s
    /// (grapheme breaking) cost more than the rest of a small response's handling.
    mutating func consume(bytes rawLine: UnsafeRawBufferPointer) -> Event {
        var end = rawLine.count
        while end > 0, rawLine[end - 1] == Self.carriageReturn || rawLine[end - 1] == Self.lineFeed { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: rawLine[0..<end])
        if line.isEmpty { return endOfBlock() }
        if line.starts(with: "HTTP/".utf8) { return startBlock(String(decoding: line, as: UTF8.self)) }
        guard statusCode != nil else { return .malformed }
        if line[0] == Self.space || line[0] == Self.tab {
            // Obsolete line folding: continue the previous value.
            guard let last = headers.indices.last else { return .malformed }
            headers[last].value += " " + Self.trimmedString(line[...])
            return .none
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .malformed }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<colon]), as: UTF8.self)
        headers.append(CurlHeaderField(name: name, value: Self.trimmedString(line[(colon + 1)...])))
        return .none
    }

    private static let carriageReturn = UInt8(ascii: "\r")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    /// The bytes without leading and trailing spaces and tabs, as a string.
    private static func trimmedString(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == space || bytes[start] == tab { start += 1 }
        while end > start, bytes[end - 1] == space || bytes[end - 1] == tab { end -= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    private mutating func startBlock(_ line: String) -> Event {
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
