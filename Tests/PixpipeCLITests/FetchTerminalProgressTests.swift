import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// `pixpipe fetch` on a terminal: run under a pseudo-terminal (`script` from util-linux), so the progress bar
/// is drawn on the same screen as the stored paths and the log lines.
@Suite("pixpipe fetch on a terminal: the bar keeps its line, its bytes are downloaded bytes")
struct FetchTerminalProgressTests {
    static let items = 8

    /// A noisy 96 x 96 RGB PNG (tens of kilobytes, so its body arrives in several chunks).
    static func photo(seed: Int) throws -> [UInt8] {
        var image = Image(width: 96, height: 96, pixelFormat: .rgb8)
        var state = UInt32(truncatingIfNeeded: seed &* 2_654_435_761 &+ 1)
        for y in 0..<96 {
            for x in 0..<96 {
                for channel in 0..<3 {
                    state = state &* 1_103_515_245 &+ 12_345
                    image[x: x, y: y, channel: channel] = Int(state >> 24)
                }
            }
        }
        return Array(try image.encoded(as: .png))
    }

    /// Runs `pixpipe` with `arguments` under a pseudo-terminal; what the terminal received (stdout and
    /// stderr together, as a user sees them) and the exit status. `nil` when `script` is not installed.
    static func runOnTerminal(_ pixpipe: PixpipeExecutable, _ arguments: [String]) throws -> (String, Int32)? {
        let script = "/usr/bin/script"
        guard FileManager.default.isExecutableFile(atPath: script) else { return nil }
        let quoted = ([pixpipe.url.path] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let scratch = try TemporaryDirectory()
        let outputPath = scratch.path("typescript-out")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        // -q quiet, -f flush, -e the child's exit status, -c the command; the typescript file is not wanted.
        process.arguments = ["-qfec", quoted.joined(separator: " "), "/dev/null"]
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: try WholeFile.data(at: URL(fileURLWithPath: outputPath)), as: UTF8.self)
        return (text, process.terminationStatus)
    }

    /// The lines as the screen shows them: each line's text after its last carriage return (the terminal
    /// itself ends lines with CR LF), with the erase-line sequence removed.
    static func visibleLines(_ text: String) -> [String] {
        // By scalars: in a `String`, CR LF is one character, which "\n" alone would not match.
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = line[...]
            while line.last == "\r" { line = line.dropLast() }
            let pieces: [Substring.UnicodeScalarView] = line.split(separator: "\r", omittingEmptySubsequences: false)
            let visible = pieces.last ?? line
            var result = String(String.UnicodeScalarView(visible))
            result = result.replacingOccurrences(of: "\u{1B}[K", with: "")
            return result
        }
    }

    /// Every byte figure the bar showed (`..., 3 failed, 12.3 KB, 4.1 KB/s`), in bytes, in order.
    static func barBytes(_ text: String) -> [Double] {
        let units: [String: Double] = ["B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9]
        var figures: [Double] = []
        for fragment in text.components(separatedBy: " failed, ").dropFirst() {
            let words = fragment.split(separator: " ", maxSplits: 2)
            guard words.count >= 2, let value = Double(words[0]),
                let unit = units[String(words[1].trimmingCharacters(in: .punctuationCharacters))]
            else { continue }
            figures.append(value * unit)
        }
        return figures
    }

    @Test("Stored paths and log lines land above the bar, never on its line; the byte figure only grows")
    func barOwnsTheLastLine() throws {
        let pixpipe = try #require(PixpipeExecutable.built)
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        var lines: [String] = []
        var downloaded = 0
        for number in 1...Self.items {
            let body = try Self.photo(seed: number)
            downloaded += body.count
            // Sent in small pieces so the bar is drawn while bodies arrive.
            server.route("/p/\(number).png", .trickle(body: body, chunkSize: 4096, interval: 0.005))
            lines.append(server.url("/p/\(number).png").absoluteString)
        }
        lines.append(server.url("/p/missing.png").absoluteString)
        let list = try folder.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: "list.txt")
        let out = folder.path("out")
        let run = try Self.runOnTerminal(
            pixpipe, ["fetch", list, "--out", out, "--thumbnail", "8", "--retries", "0", "--concurrency", "3"])
        let (text, status) = try #require(run, "script (util-linux) is needed to run on a pseudo-terminal")
        #expect(status == 1)
        // The bar was drawn at all.
        #expect(text.contains(" failed, ") && text.contains("\u{1B}[K"), "\(text.debugDescription)")

        let visible = Self.visibleLines(text)
        let paths = visible.filter { $0.contains(out + "/") && $0.hasSuffix(".jpg") }
        #expect(paths.count == Self.items, "\(visible)")
        for line in visible where line.contains(out + "/") || line.contains("pixpipe:") {
            // A path or a message starts its own line: nothing of the bar before it.
            #expect(line.hasPrefix(out + "/") || line.hasPrefix("pixpipe:"), "\(line.debugDescription)")
            #expect(Self.barBytes(line).isEmpty, "\(line.debugDescription)")
        }
        #expect(visible.contains { $0.hasPrefix("pixpipe: fetch: ") && $0.contains("missing.png") })

        let figures = Self.barBytes(text)
        #expect(!figures.isEmpty)
        for (earlier, later) in zip(figures, figures.dropFirst()) {
            #expect(earlier <= later, "byte figures \(figures)")
        }
        // Downloaded bytes, not the stored thumbnails' sizes (a few hundred bytes each): the last figure shown
        // is at most what was sent (one decimal of rounding aside), and the stored files are far smaller.
        if let last = figures.last { #expect(last <= Double(downloaded) * 1.05) }
        let stored = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".jpg") }
        #expect(stored.count == Self.items)
    }
}
