import Foundation

/// Splits bytes read chunk by chunk into numbered lines, holding at most one line (up to a limit) in memory.
///
/// Lines end at `\n`; a `\r` before it is dropped. A line over the limit is reported as too long and its
/// remaining bytes are skipped as they arrive, never buffered.
struct LineReader {
    /// One line, or what stood in its place.
    enum Line: Equatable {
        /// The text of line `number`, without its terminator.
        case text(String, number: Int)
        /// Line `number` is not valid UTF-8.
        case invalidUTF8(number: Int)
        /// Line `number` was longer than the limit.
        case tooLong(number: Int)
        /// Reading failed; no line follows.
        case failed(reason: String)
        /// A compressed list decompressed past its limit (see ``GzipChunkReader``); no line follows.
        case tooLarge(limit: Int)
    }

    /// Supplies the next chunk of bytes, an empty array at the end, or throws on a read error.
    typealias ChunkSource = () throws -> [UInt8]

    private let readChunk: ChunkSource
    private let maximumLineBytes: Int
    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start; bytes before it are dropped when it grows.
    private var start = 0
    /// Where to resume looking for `\n`, so each byte is scanned once.
    private var scanned = 0
    private var lineNumber = 0
    private var atEnd = false
    /// Skipping the rest of a too-long line until its `\n`.
    private var discarding = false

    /// A reader pulling chunks from `readChunk`, reporting lines over `maximumLineBytes` as too long.
    init(maximumLineBytes: Int, readChunk: @escaping ChunkSource) {
        self.maximumLineBytes = max(1, maximumLineBytes)
        self.readChunk = readChunk
    }

    /// The next line, or `nil` at the end of the input.
    mutating func next() -> Line? {
        while true {
            if let newline = Self.firstNewline(in: buffer, from: scanned) {
                let line = takeLine(upTo: newline)
                start = newline + 1
                scanned = start
                if let line { return line }
                continue
            }
            scanned = buffer.count
            if atEnd {
                guard start < buffer.count || discarding else { return nil }
                let line = takeLine(upTo: buffer.count)
                start = buffer.count
                discarding = false
                if let line { return line }
                return nil
            }
            if buffer.count - start > maximumLineBytes {
                // No newline within the limit: report the line now and skip the rest of it as it arrives.
                let wasDiscarding = discarding
                discarding = true
                buffer.removeAll(keepingCapacity: true)
                start = 0
                scanned = 0
                if !wasDiscarding {
                    lineNumber += 1
                    return .tooLong(number: lineNumber)
                }
            }
            if let failure = refill() { return failure }
        }
    }

    /// The line between `start` and `end`, or `nil` when it ends a line already reported as too long.
    private mutating func takeLine(upTo end: Int) -> Line? {
        if discarding {
            discarding = false
            return nil
        }
        lineNumber += 1
        guard end - start <= maximumLineBytes else { return .tooLong(number: lineNumber) }
        let last = end > start && buffer[end - 1] == UInt8(ascii: "\r") ? end - 1 : end
        // Decoded from the buffer in place: no array of the line's bytes first.
        let text = buffer.withUnsafeBufferPointer { Self.text(of: UnsafeBufferPointer(rebasing: $0[start..<last])) }
        return text.map { .text($0, number: lineNumber) } ?? .invalidUTF8(number: lineNumber)
    }

    /// The position of the first `\n` of `buffer` at or after `start`, found with `memchr` (a generic
    /// `firstIndex(of:)` compared byte by byte: most of the reader's own time).
    private static func firstNewline(in buffer: [UInt8], from start: Int) -> Int? {
        guard start < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress,
                let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// `bytes` as text, or `nil` when they are not UTF-8. An ASCII line (the usual one) is decoded without
    /// `String(validating:)`, which is generic and looked up its metadata at run time for every line.
    static func text(of bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Reads one more chunk, dropping consumed bytes first; returns a failure line on a read error.
    private mutating func refill() -> Line? {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        do {
            let chunk = try readChunk()
            if chunk.isEmpty { atEnd = true } else { buffer += chunk }
            return nil
        } catch {
            atEnd = true
            buffer.removeAll()
            start = 0
            scanned = 0
            discarding = false
            if let limit = (error as? ListReadFailure)?.decompressedLimit { return .tooLarge(limit: limit) }
            return .failed(reason: (error as? ListReadFailure)?.reason ?? (error as NSError).localizedDescription)
        }
    }
}
