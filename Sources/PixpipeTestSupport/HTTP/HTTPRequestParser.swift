/// Turns the bytes a client sends into ``RecordedRequest`` values, one complete request at a time.
///
/// A value type fed with ``append(_:)``; ``nextRequest()`` returns nil until a whole request (head and
/// body) is buffered, so pipelined and split requests both work. Sizes from the client are checked
/// against limits before anything is buffered for them.
struct HTTPRequestParser: Sendable {
    /// The most bytes a request line plus headers may take (answered 431 above it).
    static let defaultHeaderLimit = 64 * 1024
    /// The most bytes a request body may take (answered 413 above it).
    static let defaultBodyLimit = 64 * 1024 * 1024

    private static let carriageReturn: UInt8 = 13
    private static let lineFeed: UInt8 = 10
    private static let longestChunkSizeLine = 4096

    /// The header size limit in bytes.
    let headerLimit: Int
    /// The body size limit in bytes.
    let bodyLimit: Int
    private var buffer: [UInt8] = []
    /// How far ``buffer`` has been searched for the end of the head, so each search resumes there.
    private var searchedHeadBytes = 0

    /// Creates a parser with the given limits.
    init(headerLimit: Int = defaultHeaderLimit, bodyLimit: Int = defaultBodyLimit) {
        self.headerLimit = headerLimit
        self.bodyLimit = bodyLimit
    }

    /// Adds bytes received from the client.
    mutating func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next complete request and removes its bytes, or nil when more bytes are needed.
    mutating func nextRequest() throws(HTTPRequestParseError) -> RecordedRequest? {
        dropLeadingEmptyLines()
        guard let headEnd = findHeadEnd() else {
            if buffer.count > headerLimit { throw .headerTooLarge(limit: headerLimit) }
            return nil
        }
        guard headEnd + 4 <= headerLimit else { throw .headerTooLarge(limit: headerLimit) }
        let head = try RequestHead(parsing: buffer[0..<headEnd])
        guard let (body, end) = try readBody(of: head, from: headEnd + 4) else { return nil }
        buffer.removeFirst(end)
        searchedHeadBytes = 0
        return RecordedRequest(
            method: head.method, target: head.target, httpVersion: head.version, headers: head.fields, body: body)
    }

    /// RFC 9112 asks servers to ignore empty lines before a request line (some clients send one).
    private mutating func dropLeadingEmptyLines() {
        var count = 0
        while buffer.count >= count + 2 && buffer[count] == Self.carriageReturn && buffer[count + 1] == Self.lineFeed {
            count += 2
        }
        if count > 0 {
            buffer.removeFirst(count)
            searchedHeadBytes = 0
        }
    }

    private mutating func findHeadEnd() -> Int? {
        var index = max(0, searchedHeadBytes - 3)
        while index + 4 <= buffer.count {
            if buffer[index] == Self.carriageReturn && buffer[index + 1] == Self.lineFeed
                && buffer[index + 2] == Self.carriageReturn && buffer[index + 3] == Self.lineFeed
            {
                return index
            }
            index += 1
        }
        searchedHeadBytes = buffer.count
        return nil
    }

    private func findLineEnd(from start: Int) -> Int? {
        var index = start
        while index + 1 < buffer.count {
            if buffer[index] == Self.carriageReturn && buffer[index + 1] == Self.lineFeed { return index }
            index += 1
        }
        return nil
    }

    /// The body and the index just past it, or nil when it has not fully arrived.
    private func readBody(of head: RequestHead, from start: Int) throws(HTTPRequestParseError) -> ([UInt8], Int)? {
        if let codings = head.fields["transfer-encoding"] {
            let list = codings.split(separator: ",").map { $0.trimmingSpacesAndTabs().lowercased() }
            guard list == ["chunked"] else { throw .unsupportedTransferEncoding(codings) }
            return try readChunkedBody(from: start)
        }
        guard let lengthText = head.fields["content-length"] else { return ([], start) }
        let length = try Self.contentLength(lengthText)
        guard length <= bodyLimit else { throw .bodyTooLarge(limit: bodyLimit) }
        guard buffer.count - start >= length else { return nil }
        return (Array(buffer[start..<start + length]), start + length)
    }

    /// Parses `Content-Length`, which repeated fields turn into "n, n" (all values must agree).
    private static func contentLength(_ text: String) throws(HTTPRequestParseError) -> Int {
        let values = Set(text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpacesAndTabs() })
        guard values.count == 1, let value = values.first, !value.isEmpty, value.allSatisfy(\.isASCIIDigit) else {
            throw .invalidContentLength(text)
        }
        // More than 18 digits cannot fit the limit anyway; report it as too large rather than overflow.
        return value.count > 18 ? Int.max : Int(value) ?? Int.max
    }

    private func readChunkedBody(from start: Int) throws(HTTPRequestParseError) -> ([UInt8], Int)? {
        var body: [UInt8] = []
        var index = start
        while true {
            guard let lineEnd = findLineEnd(from: index) else {
                if buffer.count - index > Self.longestChunkSizeLine { throw .malformedChunk(reason: "size line too long") }
                return nil
            }
            guard lineEnd - index <= Self.longestChunkSizeLine else { throw .malformedChunk(reason: "size line too long") }
            let line = String(decoding: buffer[index..<lineEnd], as: UTF8.self)
            let sizeText = String(line.prefix { $0 != ";" }).trimmingSpacesAndTabs()
            guard !sizeText.isEmpty, sizeText.count <= 15, sizeText.allSatisfy(\.isHexDigit),
                let size = Int(sizeText, radix: 16)
            else { throw .malformedChunk(reason: "invalid chunk size \"\(sizeText)\"") }
            index = lineEnd + 2
            if size == 0 { return try skipTrailers(from: index).map { (body, $0) } }
            guard body.count + size <= bodyLimit else { throw .bodyTooLarge(limit: bodyLimit) }
            guard buffer.count >= index + size + 2 else { return nil }
            guard buffer[index + size] == Self.carriageReturn && buffer[index + size + 1] == Self.lineFeed else {
                throw .malformedChunk(reason: "chunk data not followed by CRLF")
            }
            body.append(contentsOf: buffer[index..<index + size])
            index += size + 2
        }
    }

    /// Skips trailer fields up to the empty line; returns the index past it, or nil when incomplete.
    private func skipTrailers(from start: Int) throws(HTTPRequestParseError) -> Int? {
        var index = start
        while let lineEnd = findLineEnd(from: index) {
            if lineEnd == index { return index + 2 }
            index = lineEnd + 2
            guard index - start <= headerLimit else { throw .headerTooLarge(limit: headerLimit) }
        }
        guard buffer.count - start <= headerLimit else { throw .headerTooLarge(limit: headerLimit) }
        return nil
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and horizontal tabs (HTTP's optional whitespace).
    func trimmingSpacesAndTabs() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0-9 (unlike `isNumber`, which accepts other scripts).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
