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
/// Memory is one chunk plus the longest line, whatever the manifest's length. Lines are read by
/// ``ManifestLine``'s hand parser; only a line it does not vouch for goes through `JSONDecoder`, and a line
/// neither can read (a torn or foreign line) is skipped, as before. The lines of a chunk do not depend on
/// each other, so they can be parsed on several lanes at once (``forEachLine(in:lanes:prepare:_:)``), the
/// caller still getting them one by one in the file's order.
enum ManifestReader {
    /// The bytes read per `pread`.
    static let chunkSize = 1 << 20
    /// Below this many lines per lane, another lane costs more than it saves.
    static let minimumLinesPerLane = 64

    /// Calls `body` with each parsable line of the file open at `descriptor`, from its start; returns the
    /// length up to the end of the last complete line.
    static func forEachLine(in descriptor: Int32, _ body: (ManifestLine) -> Void) -> Int {
        forEachLine(in: descriptor, lanes: 1, prepare: { $0 }, body)
    }

    /// Calls `body` with `prepare` of each parsable line of the file open at `descriptor`, in the file's
    /// order; the lines of each chunk are parsed and prepared on up to `lanes` threads at once. Returns the
    /// length up to the end of the last complete line.
    static func forEachLine<Prepared: Sendable>(
        in descriptor: Int32, lanes: Int, prepare: @escaping @Sendable (ManifestLine) -> Prepared,
        _ body: (Prepared) -> Void
    ) -> Int {
        let decoder = JSONDecoder()
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var lines: [Range<Int>] = []
        var filled = 0
        var consumed = 0
        var offset: off_t = 0
        while true {
            if filled == buffer.count {
                // A line longer than the buffer: grow it rather than split the line.
                buffer += [UInt8](repeating: 0, count: buffer.count)
            }
            let count = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + filled, raw.count - filled, offset)
            }
            guard count > 0 else { break }
            offset += off_t(count)
            let end = filled + count
            let lineStart: Int = buffer.withUnsafeBytes { raw in
                lines.removeAll(keepingCapacity: true)
                var start = 0
                while start < end,
                    let found = memchr(raw.baseAddress! + start, Int32(UInt8(ascii: "\n")), end - start)
                {
                    let newline = raw.baseAddress!.distance(to: UnsafeRawPointer(found))
                    lines.append(start..<newline)
                    start = newline + 1
                }
                let used = min(lanes, lines.count / minimumLinesPerLane)
                if used > 1 {
                    for prepared in prepareOnLanes(lines, of: raw, lanes: used, prepare: prepare) {
                        if let prepared { body(prepared) }
                    }
                } else {
                    for line in lines {
                        if let parsed = parse(UnsafeRawBufferPointer(rebasing: raw[line]), decoder: decoder) {
                            body(prepare(parsed))
                        }
                    }
                }
                return start
            }
            consumed += lineStart
            // Keep the incomplete last line for the next chunk.
            if lineStart > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    _ = memmove(raw.baseAddress!, raw.baseAddress! + lineStart, end - lineStart)
                }
            }
            filled = end - lineStart
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
