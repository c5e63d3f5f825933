import Foundation
import PixpipeLocking
import Testing

@testable import Pixpipe

/// Small images made by the library's encoders, as bodies for the test server.
enum Bodies {
    /// A `width` x `height` RGB PNG whose pixels depend on `seed`, so different seeds give different files.
    static func png(width: Int = 8, height: Int = 6, seed: Int = 0) -> [UInt8] {
        encoded(image(width: width, height: height, seed: seed), as: .png)
    }

    /// A JPEG like ``png(width:height:seed:)``.
    static func jpeg(width: Int = 8, height: Int = 6, seed: Int = 0) -> [UInt8] {
        encoded(image(width: width, height: height, seed: seed), as: .jpeg)
    }

    /// A progressive JPEG like ``png(width:height:seed:)``, quality 90, 4:2:0.
    static func progressiveJPEG(width: Int, height: Int, seed: Int = 0) -> [UInt8] {
        encoded(
            image(width: width, height: height, seed: seed),
            as: .jpeg(JPEGEncodeOptions(quality: 90, progressive: true)))
    }

    /// An animated WebP of `frames` frames of `width` x `height`, each 70 ms, each with other pixels.
    static func animatedWebP(width: Int = 40, height: Int = 20, frames: Int = 3) -> [UInt8] {
        let animation = (0..<frames).map {
            AnimationFrame(index: $0, image: image(width: width, height: height, seed: $0), duration: .milliseconds(70))
        }
        // Encoding small 8-bit frames in memory cannot fail; an empty body would make the test fail visibly.
        return (try? [UInt8](ImageEncoding.webp.encodeAnimation(animation, loopCount: 0))) ?? []
    }

    private static func image(width: Int, height: Int, seed: Int) -> Image {
        var image = Image(width: width, height: height, pixelFormat: .rgb8)
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 {
                    image[x: x, y: y, channel: channel] = (x * 31 + y * 17 + seed * 53 + channel) % 256
                }
            }
        }
        return image
    }

    private static func encoded(_ image: Image, as encoding: ImageEncoding) -> [UInt8] {
        // Encoding an 8-bit RGB image in memory cannot fail; an empty body would make the test fail visibly.
        (try? [UInt8](image.encoded(as: encoding))) ?? []
    }
}

/// A fresh folder under the temporary directory, removed when released.
final class TemporaryFolder {
    /// The folder.
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pixpipe-download-\(UUID().uuidString)")
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The names in the folder, sorted (hidden ones included); empty when the folder does not exist.
    func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    /// The names of image files (no manifest, no hidden files).
    func imageNames() -> [String] {
        names().filter { !$0.hasPrefix(".") && !$0.hasSuffix(".jsonl") }
    }

    /// The bytes of `name`.
    func contents(_ name: String) -> [UInt8]? {
        read(name).map { [UInt8]($0) }
    }

    /// The whole file `name`, read through `FileHandle`: on Linux, `FileManager.contents(atPath:)` of an
    /// empty file leaks its 4 KiB read buffer, which LeakSanitizer reports under `--sanitize address`.
    private func read(_ name: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: url.appendingPathComponent(name).path) else { return nil }
        defer { try? handle.close() }
        return (try? handle.readToEnd()) ?? Data()
    }

    /// The manifest's records, in order.
    func manifest(_ name: String = "manifest.jsonl") -> [ManifestRecord] {
        guard let data = read(name) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap {
            try? JSONDecoder().decode(ManifestRecord.self, from: Data($0))
        }
    }
}

/// Test defaults: fast retries, short timeouts.
func testOptions(_ folder: TemporaryFolder) -> DownloadOptions {
    var options = DownloadOptions(outputDirectory: folder.url)
    options.retryPolicy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), maxDelay: .milliseconds(20))
    options.timeout = .seconds(10)
    return options
}

/// Runs a batch and returns every event, the final `.stopped` included.
func collectEvents(_ downloader: Downloader, _ items: [DownloadItem]) async -> [DownloadEvent] {
    var events: [DownloadEvent] = []
    for await event in downloader.run(items) { events.append(event) }
    return events
}

/// The `.finished` records by item index.
func records(_ events: [DownloadEvent]) -> [Int: ManifestRecord] {
    var result: [Int: ManifestRecord] = [:]
    for case .finished(let index, let record) in events { result[index] = record }
    return result
}

/// The summary of `.stopped`.
func summary(_ events: [DownloadEvent]) -> DownloadSummary? {
    guard case .stopped(let summary) = events.last else { return nil }
    return summary
}

/// Counts requests in progress at the server and remembers the most seen at once, per key.
final class InFlightCounter: Sendable {
    private let state = Locked<(current: [String: Int], peak: [String: Int], total: Int, peakTotal: Int)>(
        ([:], [:], 0, 0))

    /// Marks a request for `key` as started.
    func enter(_ key: String) {
        state.withLock { state in
            state.current[key, default: 0] += 1
            state.total += 1
            state.peak[key] = max(state.peak[key] ?? 0, state.current[key] ?? 0)
            state.peakTotal = max(state.peakTotal, state.total)
        }
    }

    /// Marks a request for `key` as done.
    func leave(_ key: String) {
        state.withLock { state in
            state.current[key, default: 0] -= 1
            state.total -= 1
        }
    }

    /// The most requests for `key` at once.
    func peak(_ key: String) -> Int { state.withLock { $0.peak[key] ?? 0 } }

    /// The most requests at once over all keys.
    var peakTotal: Int { state.withLock { $0.peakTotal } }
}

/// A writer that stores the first `allowed` files, then fails like a full disk.
final class FailingWriter: DownloadFileWriting {
    private let remaining: Locked<Int>

    init(allowed: Int) {
        remaining = Locked(allowed)
    }

    func write(_ data: Data, named name: String, in directory: URL, flushes: Bool) throws(DownloadError) {
        let allowed = remaining.withLock { count in
            defer { count -= 1 }
            return count > 0
        }
        guard allowed else {
            throw .write(path: directory.appendingPathComponent(name).path, operation: "write", code: ENOSPC)
        }
        try AtomicFileWriter().write(data, named: name, in: directory, flushes: flushes)
    }
}
