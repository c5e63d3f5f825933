/// Assembles response heads from the header lines libcurl hands over, one per call.
///
/// libcurl calls the header callback for every response of a transfer: 1xx interim responses and the
/// final one (a redirect ends its transfer; the engine starts the next hop with a fresh parser). Each status
/// line starts a fresh head, so only the last block's headers survive; the blank line that ends a block says
/// which kind it was.
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
    /// The current block's names and values, back to back; `fields` index into it.
    private var storage: [UInt8] = []
    private var fields: [CurlResponseHead.FieldRange] = []

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
        if Self.isStatusLine(line) { return startBlock(line) }
        guard statusCode != nil else { return .malformed }
        if line[0] == Self.space || line[0] == Self.tab {
            // Obsolete line folding: the previous value, a space and this line, copied to the end.
            guard let last = fields.indices.last else { return .malformed }
            let start = storage.count
            storage.append(contentsOf: storage[fields[last].value])
            storage.append(Self.space)
            storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: Self.trimmed(line[...])))
            fields[last].value = start..<storage.count
            return .none
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .malformed }
        let nameStart = storage.count
        // Appended as raw buffers, which copy in one go; slices of them are copied byte by byte.
        storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: line[..<colon]))
        let valueStart = storage.count
        storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: Self.trimmed(line[(colon + 1)...])))
        fields.append(CurlResponseHead.FieldRange(name: nameStart..<valueStart, value: valueStart..<storage.count))
        return .none
    }

    private static let carriageReturn = UInt8(ascii: "\r")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    /// Whether the line starts with `HTTP/`, as status lines do (compared as bytes, once per header line).
    private static func isStatusLine(_ line: UnsafeRawBufferPointer) -> Bool {
        line.count >= 5 && line[0] == UInt8(ascii: "H") && line[1] == UInt8(ascii: "T") && line[2] == UInt8(ascii: "T")
            && line[3] == UInt8(ascii: "P") && line[4] == UInt8(ascii: "/")
    }

    /// The bytes without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == space || bytes[start] == tab { start += 1 }
        while end > start, bytes[end - 1] == space || bytes[end - 1] == tab { end -= 1 }
        return bytes[start..<end]
    }

    /// Starts a block at a status line: `HTTP/1.1 200 OK`, `HTTP/2 404`.
    private mutating func startBlock(_ line: UnsafeRawBufferPointer) -> Event {
        guard let versionEnd = line.firstIndex(of: Self.space) else { return .malformed }
        var start = versionEnd
        while start < line.count, line[start] == Self.space { start += 1 }
        var end = start
        var code = 0
        while end < line.count, end - start < 4, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[end]) {
            code = code * 10 + Int(line[end] - UInt8(ascii: "0"))
            end += 1
        }
        guard end - start == 3, end == line.count || line[end] == Self.space, code >= 100 else { return .malformed }
        statusCode = code
        httpVersion = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<versionEnd]), as: UTF8.self)
        // A typical head's names and values fit; the head takes the array when the block ends.
        storage = []
        storage.reserveCapacity(512)
        fields.removeAll(keepingCapacity: true)
        return .none
    }

    private mutating func endOfBlock() -> Event {
        guard let code = statusCode else { return .malformed }
        statusCode = nil
        if (100..<200).contains(code) { return .interim }
        return .complete(CurlResponseHead(statusCode: code, httpVersion: httpVersion, storage: storage, fields: fields))
    }
}
