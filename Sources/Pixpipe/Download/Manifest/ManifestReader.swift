import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a manifest's lines for a resumed batch: streamed in 1 MiB chunks, each line parsed in place.
///
/// Memory is one buffer of ``maxLineBytes`` (plus the newline), whatever the manifest's length and its
/// longest line: the manifest may come from a folder others wrote, so a longer line is not grown into but
/// skipped to its end, and reported (``ManifestLineIssue/Reason/tooLong(limit:)``). Lines are read by
/// ``ManifestLine``'s hand parser; only a line it does not vouch for goes through `JSONDecoder`, and a line
/// neither can read (a foreign line, or one torn by a kill in the past) is reported and skipped. The last
/// line, when the file does not end with a newline, is torn: neither read nor reported, and left out of
/// the returned length, which is what opening cuts the file to. The lines of a chunk do not depend on
/// each other, so they can be parsed on several lanes at once
/// (``forEachLine(in:lanes:maxLineBytes:prepare:skipped:_:)``), the caller still getting them one by one
/// in the file's order.
enum ManifestReader {
    /// The bytes read per `pread`, at most.
    static let chunkSize = 1 << 20
    /// The longest line read, newline not counted: 1 MiB. The writer's lines are far shorter (a URL of at
    /// most 256 KiB, a name of at most 255 bytes, an error of one short line); a longer line was written
    /// by someone else, and growing the buffer to it would let a manifest take any amount of memory.
    static let maxLineBytes = 1 << 20
    /// Below this many lines per lane, another lane costs more than it saves.
    static let minimumLinesPerLane = 64

    /// Calls `body` with each parsable line of the file open at `descriptor`, from its start; returns the
    /// length up to the end of the last complete line, or `nil` when the file could not be read.
    static func forEachLine(in descriptor: Int32, _ body: (ManifestLine) -> Void) -> Int? {
        forEachLine(in: descriptor, lanes: 1, prepare: { $0 }) { line, _ in body(line) }
    }

    /// Calls `body` with `prepare` of each parsable line of the file open at `descriptor` and the line's
    /// number (from 1), in the file's order, and `skipped` with each complete line that could not be used
    /// (blank lines are passed over in silence). The lines of each chunk are parsed and prepared on up to
    /// `lanes` threads at once. Returns the length up to the end of the last complete line, or `nil` when a
    /// read failed (then nothing may be cut from the file).
    static func forEachLine<Prepared: Sendable>(
        in descriptor: Int32, lanes: Int, maxLineBytes: Int = maxLineBytes,
        prepare: @escaping @Sendable (ManifestLine) -> Prepared, skipped: (ManifestLineIssue) -> Void = { _ in },
        _ body: (Prepared, Int) -> Void
    ) -> Int? {
        let decoder = JSONDecoder()
        // A whole line of the longest length and its newline fit; never more.
        var buffer = [UInt8](repeating: 0, count: maxLineBytes + 1)
        var lines: [Range<Int>] = []
        var filled = 0
        var consumed = 0
        var offset: off_t = 0
        var lineNumber = 0
        // Inside a line longer than the bound: its bytes are dropped until its newline.
        var discarding = false
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + filled, min(chunkSize, raw.count - filled), offset)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            guard count > 0 else { break }
            offset += off_t(count)
            let end = filled + count
            let lineStart: Int = buffer.withUnsafeBytes { raw in
                var start = 0
                if discarding {
                    guard let found = memchr(raw.baseAddress!, Int32(UInt8(ascii: "\n")), end) else { return end }
                    discarding = false
                    lineNumber += 1
                    skipped(ManifestLineIssue(line: lineNumber, reason: .tooLong(limit: maxLineBytes)))
                    start = raw.baseAddress!.distance(to: UnsafeRawPointer(found)) + 1
                }
                lines.removeAll(keepingCapacity: true)
                while start < end,
                    let found = memchr(raw.baseAddress! + start, Int32(UInt8(ascii: "\n")), end - start)
                {
                    let newline = raw.baseAddress!.distance(to: UnsafeRawPointer(found))
                    lines.append(start..<newline)
                    start = newline + 1
                }
                let first = lineNumber + 1
                lineNumber += lines.count
                let used = min(lanes, lines.count / minimumLinesPerLane)
                if used > 1 {
                    let prepared = prepareOnLanes(lines, of: raw, lanes: used, prepare: prepare)
                    for (position, result) in prepared.enumerated() {
                        if let result {
                            body(result, first + position)
                        } else if !lines[position].isEmpty {
                            skipped(ManifestLineIssue(line: first + position, reason: .unreadable))
                        }
                    }
                } else {
                    for (position, line) in lines.enumerated() {
                        if let parsed = parse(UnsafeRawBufferPointer(rebasing: raw[line]), decoder: decoder) {
                            body(prepare(parsed), first + position)
                        } else if !line.isEmpty {
                            skipped(ManifestLineIssue(line: first + position, reason: .unreadable))
                        }
                    }
                }
                return start
            }
            if !discarding { consumed = Int(offset) - (end - lineStart) }
            let rest = end - lineStart
            if discarding || rest == buffer.count {
                // No newline in a full buffer: the line is longer than the bound (or still is).
                discarding = true
                filled = 0
                continue
            }
            // Keep the incomplete last line for the next chunk.
            if lineStart > 0, rest > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    _ = memmove(raw.baseAddress!, raw.baseAddress! + lineStart, rest)
                }
            }
            filled = rest
        }
        return consumed
    }

    /// `prepare` of each of `lines` of `bytes` that parses (`nil` for the others), in order, computed on
    /// `lanes` threads, each taking a contiguous share of the lines.
    private static func prepareOnLanes<Prepared: Sendable>(
        _ lines: [Range<Int>], of bytes: UnsafeRawBufferPointer, lanes: Int,
        prepare: @escaping @Sendable (ManifestLine) -> Prepared
    ) -> [Prepared?] {
        var results = [Prepared?](repeating: nil, count: lines.count)
        results.withUnsafeMutableBufferPointer { output in
            let work = ChunkWork(bytes: bytes, lines: lines, output: output, prepare: prepare)
            DispatchQueue.concurrentPerform(iterations: lanes) { lane in
                let decoder = JSONDecoder()
                let share = (lane * work.lines.count / lanes)..<((lane + 1) * work.lines.count / lanes)
                for index in share {
                    let line = UnsafeRawBufferPointer(rebasing: work.bytes[work.lines[index]])
                    work.output[index] = parse(line, decoder: decoder).map(work.prepare)
                }
            }
        }
        return results
    }

    /// One line's fields: by hand when it can, else through `JSONDecoder`, else `nil`.
    static func parse(_ line: UnsafeRawBufferPointer, decoder: JSONDecoder) -> ManifestLine? {
        if let parsed = ManifestLine(bytes: line) { return parsed }
        guard let record = try? decoder.decode(ManifestRecord.self, from: Data(line)) else { return nil }
        return ManifestLine(record)
    }
}

/// What the lanes of one chunk share.
///
/// Why `@unchecked Sendable` is safe: `bytes` (the chunk) and `lines` are only read while the lanes run,
/// and the chunk's buffer is neither written nor freed until `DispatchQueue.concurrentPerform` has returned
/// (inside the closure that lends it); each lane writes only the `output` positions of its own contiguous
/// share of the lines, so no two threads write the same element and none reads another's; `output`'s array
/// outlives the lanes, which have all finished when `concurrentPerform` returns.
private struct ChunkWork<Prepared: Sendable>: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    let lines: [Range<Int>]
    let output: UnsafeMutableBufferPointer<Prepared?>
    let prepare: @Sendable (ManifestLine) -> Prepared
}
