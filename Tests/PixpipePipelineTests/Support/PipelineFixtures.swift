import Dispatch
import Foundation
import Pixpipe
import PixpipeLocking
import PixpipeTestSupport

/// Images, servers and steps for the pipeline tests.
enum PipelineFixture {
    /// An RGB image of `width` x `height` whose pixels depend on `seed`.
    static func image(width: Int = 64, height: Int = 48, seed: Int = 0) -> Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for index in pixels.indices { pixels[index] = UInt8(truncatingIfNeeded: index &* 7 &+ seed &* 31) }
        return Image(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }

    /// Whether `image` has the pixels of ``image(width:height:seed:)`` (its metadata is the decoder's).
    static func isImage(_ image: Image?, width: Int = 64, height: Int = 48, seed: Int = 0) -> Bool {
        let expected = Self.image(width: width, height: height, seed: seed)
        guard let image else { return false }
        return image.width == expected.width && image.height == expected.height
            && image.pixelFormat == expected.pixelFormat && image.pixels == expected.pixels
    }

    /// The PNG bytes of ``image(width:height:seed:)``.
    static func png(width: Int = 64, height: Int = 48, seed: Int = 0) -> [UInt8] {
        // Encoding a well-formed 8-bit RGB image cannot fail.
        [UInt8]((try? image(width: width, height: height, seed: seed).encoded(as: .png)) ?? Data())
    }

    /// A client that never retries, so that request counts are exact.
    static func client() -> HTTPClient {
        HTTPClient(configuration: .init(timeout: .seconds(30), retryPolicy: RetryPolicy.none))
    }

    /// A pipeline over `client` with the given disk cache and queue widths.
    static func pipeline(
        client: HTTPClient, dataCache: DataCache? = nil, downloads: Int = 6, decodes: Int = 2,
        policy: HTTPCachePolicy = .http
    ) -> ImagePipeline {
        ImagePipeline(
            configuration: .init(
                client: client, imageCache: ImageCache(), dataCache: dataCache, cachePolicy: policy,
                maxConcurrentDownloads: downloads, maxConcurrentDecodes: decodes))
    }

    /// A thumbnail step fitting a `side` x `side` box.
    static func thumbnail(_ side: Int) -> any ImageProcessing {
        .thumbnail(ThumbnailOptions(size: .box(side)))
    }
}

/// A latch a server handler or a processing step waits at until the test opens it (at most 20 s, so a
/// failed test cannot hang the server's threads).
final class Gate: Sendable {
    private let isOpen = Locked(false)
    private let arrivals = Locked(0)

    /// Blocks the calling thread until the gate opens.
    func wait() {
        arrivals.withLock { $0 += 1 }
        let deadline = ContinuousClock.now + .seconds(20)
        while !isOpen.withLock({ $0 }), ContinuousClock.now < deadline { usleep(1_000) }
    }

    /// Lets every waiter, present and future, through.
    func open() {
        isOpen.withLock { $0 = true }
    }

    /// How many threads have reached the gate.
    var arrived: Int { arrivals.withLock { $0 } }
}

/// Paths in the order requests for them arrived at the server.
final class ArrivalLog: Sendable {
    private let paths = Locked<[String]>([])

    /// Records `path`.
    func record(_ path: String) { paths.withLock { $0.append(path) } }

    /// The paths so far.
    var order: [String] { paths.withLock { $0 } }
}

/// A processing step that counts its runs and logs its label, and can wait at a gate first.
struct RecordingStep: ImageProcessing {
    let label: String
    let log: ArrivalLog
    var gate: Gate?

    var identifier: String { "record(\(label))" }

    func process(_ image: Image) throws(ImageProcessingError) -> Image {
        log.record(label)
        gate?.wait()
        return image
    }
}

/// Waits until `condition` holds, polling every few milliseconds; false after `timeout` seconds.
func eventually(timeout: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
