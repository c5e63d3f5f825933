import Foundation

/// A URL list read lazily: a sequence of entries and line errors, reading its source in chunks as it is
/// iterated, so a list of any length costs the memory of one line.
///
/// Lines that cannot be used are elements too (`.failure` with their line number), so a caller can report
/// them and go on. A file is reopened by each iteration; standard input can be iterated once.
///
/// ```swift
/// for element in URLList(path: "urls.csv") {
///     switch element {
///     case .success(let entry): print(entry.line, entry.url, entry.name ?? "")
///     case .failure(let error): print("skipped:", error)
///     }
/// }
/// ```
public struct URLList: Sequence, Sendable {
    /// Where the list's bytes come from.
    public enum Source: Sendable, Hashable {
        /// A file at a path.
        case file(String)
        /// The process's standard input.
        case standardInput
        /// Bytes in memory (tests, fuzzing, small lists).
        case bytes([UInt8])
    }

    /// Where the bytes come from.
    public let source: Source
    /// The format, or `nil` to detect it from the first line that is neither blank nor a comment.
    public let format: URLListFormat?
    /// The longest line (and the longest multi-line CSV/TSV record) accepted, in bytes.
    public let maximumLineBytes: Int
    /// The columns (CSV/TSV) or keys (JSON Lines) besides `url` and `name` whose values each entry keeps in
    /// ``URLListEntry/columns``, lowercased (`series`, `chapter`...); none by default.
    public var keptColumns: Set<String> = []
    /// The most bytes a gzip-compressed list (told by its first bytes, `1f 8b`, whatever its name) may
    /// decompress to, 4 GiB by default; past it, or past 1,000 times its compressed size once over 1 MiB
    /// (a gzip bomb), the list ends with ``URLListError/decompressedTooLarge(limit:)``.
    public var maximumDecompressedBytes = 4 << 30

    /// The bytes read per chunk.
    static let chunkSize = 65_536

    /// A list read from `source`.
    public init(source: Source, format: URLListFormat? = nil, maximumLineBytes: Int = 262_144) {
        self.source = source
        self.format = format
        self.maximumLineBytes = maximumLineBytes
    }

    /// The list in the file at `path`, or standard input when `path` is `-`.
    public init(path: String, format: URLListFormat? = nil) {
        self.init(source: path == "-" ? .standardInput : .file(path), format: format)
    }

    /// The list held in `bytes`.
    public init(bytes: some Sequence<UInt8>, format: URLListFormat? = nil) {
        self.init(source: .bytes(Array(bytes)), format: format)
    }

    /// Starts reading the source from its beginning.
    public func makeIterator() -> Iterator {
        Iterator(list: self)
    }

    /// Reads entries one line at a time.
    public struct Iterator: IteratorProtocol {
        private var lines: LineReader
        private var parser: URLListParser
        private var ended = false
        private let maximumLineBytes: Int

        init(list: URLList) {
            maximumLineBytes = list.maximumLineBytes
            parser = URLListParser(format: list.format, maximumRecordBytes: list.maximumLineBytes)
            parser.keptColumns = Set(list.keptColumns.map { $0.lowercased() })
            lines = LineReader(
                maximumLineBytes: list.maximumLineBytes,
                readChunk: Self.chunkSource(for: list.source, decompressedLimit: list.maximumDecompressedBytes))
        }

        /// The next entry or line error, or `nil` at the end of the list.
        public mutating func next() -> Result<URLListEntry, URLListError>? {
            nextElement { parser, line, number in parser.parse(line: line, number: number) }
        }

        /// The next entry or line error as ``next()`` reads it, the entry checked without building its `URL`
        /// when it is a plain one (see ``URLListParser/check(line:number:)``).
        mutating func nextChecked() -> Result<CheckedEntry, URLListError>? {
            nextElement { parser, line, number in parser.check(line: line, number: number) }
        }

        /// The next element `read` makes of a line, or a line error, or `nil` at the end of the list.
        private mutating func nextElement<Element>(
            _ read: (inout URLListParser, Substring, Int) -> Result<Element, URLListError>?
        ) -> Result<Element, URLListError>? {
            while !ended {
                guard let line = lines.next() else {
                    ended = true
                    if case .failure(let error) = parser.finish() { return .failure(error) }
                    return nil
                }
                switch line {
                case .invalidUTF8(let number):
                    if parser.isFinished { continue }
                    return .failure(.invalidUTF8(line: number))
                case .text(let text, let number):
                    let withoutMark = number == 1 && text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
                    if let result = read(&parser, withoutMark, number) {
                        if case .failure(let error) = result, error.endsList { ended = true }
                        return result
                    }
                    if parser.isFinished { ended = true }
                case .tooLong(let number):
                    if parser.isFinished { continue }
                    return .failure(.lineTooLong(limit: maximumLineBytes, line: number))
                case .failed(let reason):
                    ended = true
                    parser.stop()
                    return .failure(.unreadable(reason: reason))
                case .tooLarge(let limit):
                    ended = true
                    parser.stop()
                    return .failure(.decompressedTooLarge(limit: limit))
                }
            }
            return nil
        }

        /// A function returning successive chunks of `source`, then an empty array.
        private static func chunkSource(for source: Source, decompressedLimit: Int) -> LineReader.ChunkSource {
            switch source {
            case .bytes(let bytes):
                if GzipChunkReader.isGzip(bytes) {
                    var reader: GzipChunkReader?
                    return {
                        if reader == nil { reader = try GzipChunkReader(bytes: bytes, limit: decompressedLimit) }
                        return try reader?.next(upTo: URLList.chunkSize) ?? []
                    }
                }
                var offset = 0
                return {
                    let end = Swift.min(bytes.count, offset + URLList.chunkSize)
                    defer { offset = end }
                    return Array(bytes[offset..<end])
                }
            case .standardInput:
                return { try FileHandle.standardInput.read(upToCount: URLList.chunkSize).map(Array.init) ?? [] }
            case .file(let path):
                var handle: FileHandle?
                var gzip: GzipChunkReader?
                return {
                    if let gzip { return try gzip.next(upTo: URLList.chunkSize) }
                    if handle == nil {
                        guard let opened = FileHandle(forReadingAtPath: path) else {
                            throw ListReadFailure(reason: "cannot open '\(path)'")
                        }
                        handle = opened
                        // A gzip list is told by its first two bytes, whatever its name.
                        let head = try opened.read(upToCount: 2).map(Array.init) ?? []
                        if GzipChunkReader.isGzip(head) {
                            try? opened.close()
                            let reader = try GzipChunkReader(path: path, limit: decompressedLimit)
                            gzip = reader
                            return try reader.next(upTo: URLList.chunkSize)
                        }
                        let rest = try opened.read(upToCount: URLList.chunkSize - head.count).map(Array.init) ?? []
                        if head.count + rest.count == 0 { try? opened.close() }
                        return head + rest
                    }
                    let chunk = try handle?.read(upToCount: URLList.chunkSize).map(Array.init) ?? []
                    if chunk.isEmpty { try? handle?.close() }
                    return chunk
                }
            }
        }
    }
}

/// A read failure whose reason is already worded for people.
struct ListReadFailure: Error {
    /// What went wrong.
    let reason: String
    /// The limit a compressed list decompressed past, for ``URLListError/decompressedTooLarge(limit:)``.
    var decompressedLimit: Int? = nil
}
