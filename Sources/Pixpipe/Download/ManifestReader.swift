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
/// neither can read (a torn or foreign line) is skipped, as before.
enum ManifestReader {
    /// The bytes read per `pread`.
    static let chunkSize = 1 << 20

    /// Calls `body` with each parsable line of the file open at `descriptor`, from its start; returns the
    /// length up to the end of the last complete line.
    static func forEachLine(in descriptor: Int32, _ body: (ManifestLine) -> Void) -> Int {
        let decoder = JSONDecoder()
        var buffer = [UInt8](repeating: 0, count: chunkSize)
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
                var start = 0
                while start < end,
                    let found = memchr(raw.baseAddress! + start, Int32(UInt8(ascii: "\n")), end - start)
                {
                    let newline = raw.baseAddress!.distance(to: UnsafeRawPointer(found))
                    let line = UnsafeRawBufferPointer(rebasing: raw[start..<newline])
                    if let parsed = parse(line, decoder: decoder) { body(parsed) }
                    start = newline + 1
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

    /// One line's fields: by hand when it can, else through `JSONDecoder`, else `nil`.
    static func parse(_ line: UnsafeRawBufferPointer, decoder: JSONDecoder) -> ManifestLine? {
        if let parsed = ManifestLine(bytes: line) { return parsed }
        guard let record = try? decoder.decode(ManifestRecord.self, from: Data(line)) else { return nil }
        return ManifestLine(record)
    }
}
