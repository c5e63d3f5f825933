import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The checks the manifest fuzz target (`Sources/Fuzz/FuzzManifest`) runs on any bytes taken as a folder's
/// manifest; each broken promise traps, which is what the fuzzer looks for.
///
/// The promises: reading ends, with memory bounded by the line limit whatever the lines (long, torn,
/// escaped, duplicate keys, invalid UTF-8); every complete line is either read or reported, once, with
/// its number, in order, the same on one lane as on several; the hand parser never reads a line
/// differently from `JSONDecoder` when it vouches for it; a name accepted from a line is one path
/// component; and opening the manifest cuts nothing but a torn last line.
package enum ManifestFuzzing {
    /// The line limit used on the fuzzer's inputs (at most 64 KiB each), small so that long lines are met.
    package static let lineLimit = 512

    /// Runs every check on `bytes` as the manifest of the folder at `folder` (which must exist; its
    /// `manifest.jsonl` is replaced).
    package static func check(_ bytes: UnsafeRawBufferPointer, in folder: URL) {
        let path = folder.appendingPathComponent("manifest.jsonl").path
        _ = unlink(path)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        precondition(descriptor >= 0, "cannot create \(path)")
        defer { close(descriptor) }
        precondition(bytes.isEmpty || write(descriptor, bytes.baseAddress, bytes.count) == bytes.count)
        let newlines = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0

        var byLanes: [[String]] = []
        for lanes in [1, 3] {
            var seen: [String] = []
            var numbers: [Int] = []
            let length = ManifestReader.forEachLine(
                in: descriptor, lanes: lanes, maxLineBytes: lineLimit, prepare: { $0 },
                skipped: { issue in
                    numbers.append(issue.line)
                    seen.append("\(issue.line) \(issue.reason.shortName)")
                }
            ) { line, number in
                numbers.append(number)
                seen.append("\(number) \(line.url) \(line.name ?? "-")")
            }
            precondition(length == lastNewline, "the readable length must end at the last newline")
            precondition(numbers == numbers.sorted() && Set(numbers).count == numbers.count, "lines out of order")
            precondition(numbers.allSatisfy { (1...newlines).contains($0) }, "a line number past the lines")
            byLanes.append(seen)
        }
        precondition(byLanes[0] == byLanes[1], "lanes read the lines differently")

        // The hand parser against JSONDecoder, line by line (complete lines only).
        let decoder = JSONDecoder()
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
            start = index + 1
            guard let byHand = ManifestLine(bytes: line) else { continue }
            let decoded = try? decoder.decode(ManifestRecord.self, from: Data(line))
            precondition(decoded.map(ManifestLine.init) == byHand, "the hand parser read a line differently")
            if let name = byHand.name, StoredName.isValid(name) {
                precondition(!name.contains("/") && !name.hasPrefix(".") && !name.contains("\0"))
            }
        }

        // Opening as a run does: nothing cut but the torn last line.
        do {
            let (store, _) = try ManifestStore.open(named: "manifest.jsonl", in: folder, readsPrior: true)
            precondition(store.issueCount >= store.issues.count)
        } catch {
            preconditionFailure("a regular manifest must open: \(error)")
        }
        // Read back through the descriptor (Foundation's whole-file read leaks a buffer on some inputs).
        var status = stat()
        precondition(fstat(descriptor, &status) == 0)
        var kept = [UInt8](repeating: 0, count: Int(status.st_size))
        let count = kept.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        precondition(
            count == kept.count && kept.elementsEqual(bytes[..<lastNewline]), "opening cut more than the torn last line"
        )
    }
}
