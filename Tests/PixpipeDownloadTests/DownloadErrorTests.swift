import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// The downloader's errors wrap the load chain ``ImagePipeline`` throws: one case for fetch, decoding,
/// processing and cancellation, the same short names in the manifest as before the chain was shared.
@Suite("Download errors share the load chain", .serialized)
struct DownloadErrorTests {
    @Test(
        "Processing failures reach the manifest with their stage's name and message; a cut thumbnail source is retried")
    func processingFailuresInManifest() async throws {
        let server = try TestHTTPServer()
        let png = Bodies.png(width: 64, height: 64)
        server.route("/photo.png", .respond(body: png))
        server.route("/cut.png", .respond(body: Array(png.prefix(png.count / 2))))
        let cases: [(any ImageProcessing, path: String, kind: String, message: String, requests: Int)] = [
            (
                ImageProcessors.Thumbnail(ThumbnailOptions(size: .box(0))), "/photo.png", "invalid-thumbnail-size",
                "cannot thumbnail ", 1
            ),
            (ImageProcessors.Resize(width: 0, height: 8), "/photo.png", "invalid-size", "cannot process ", 1),
            (ImageProcessors.Thumbnail(ThumbnailOptions(size: .box(8))), "/cut.png", "truncated-image", "", 3),
        ]
        for (step, path, kind, message, requests) in cases {
            let folder = TemporaryFolder()
            var options = testOptions(folder)
            options.processing = [step]
            let before = server.requestCount(path)
            let found = records(
                await collectEvents(Downloader(options: options), [DownloadItem(url: server.url(path))]))
            let record = try #require(found[0])
            #expect(record.status == .failed && record.errorKind == kind, "\(kind)")
            #expect(record.error?.hasPrefix(message + server.url(path).absoluteString) == true, "\(record.error ?? "")")
            #expect(server.requestCount(path) - before == requests, "\(kind)")
            #expect(folder.imageNames().isEmpty)
        }
    }

    @Test("A processing error becomes the load chain's case: decoding whichever step decoded, else processing")
    func processingErrorConversion() {
        let url = URL(string: "https://example.com/a.jpg")!
        let truncated = ImageDecodingError.truncated(format: .jpeg, reason: "cut")
        let cases: [(ImageProcessingError, ImageLoadError)] = [
            (.decoding(truncated), .decoding(truncated, url: url)),
            (.invalidThumbnailSize(.box(0)), .processing(.invalidThumbnailSize(.box(0)), url: url)),
            (.invalidSize(width: 0, height: 1), .processing(.invalidSize(width: 0, height: 1), url: url)),
            (
                .colorTransformFailed(reason: "no"),
                .processing(.colorTransformFailed(reason: "no"), url: url)
            ),
        ]
        for (processing, load) in cases {
            #expect(ImageLoadError(processing, url: url) == load)
            #expect(DownloadError(processing, url: url) == .load(load))
            #expect(DownloadError(processing, url: url).shortName == processing.shortName)
            #expect(DownloadError(processing, url: url).description == load.description)
        }
        #expect(DownloadError(.decoding(truncated), url: url).isRetryableContent)
        #expect(!DownloadError(.invalidThumbnailSize(.box(0)), url: url).isRetryableContent)
        // The message still says which step refused the item.
        #expect(
            ImageLoadError(.sourceTooLarge(width: 9, height: 9, limit: 8), url: url).description.hasPrefix(
                "cannot thumbnail"))
        #expect(
            ImageLoadError(.invalidColorProfile(reason: "x"), url: url).description.hasPrefix(
                "cannot convert the colours"))
        #expect(
            ImageLoadError(
                .emptyCrop(PixelRect(x: 9, y: 9, width: 1, height: 1), imageWidth: 2, imageHeight: 2), url: url
            ).description.hasPrefix("cannot process"))
        #expect(ImageLoadError.cancelled(url: url).shortName == "cancelled")
        #expect(DownloadError.load(.cancelled(url: url)).shortName == "cancelled")
        #expect(DownloadError.isRunFailure(shortName: DownloadError.load(.cancelled(url: url)).shortName))
    }

    @Test("The former cases' constructors and type names build the shared chain's cases, with the same names")
    @available(*, deprecated, message: "calls the deprecated constructors on purpose")
    func deprecatedConstructors() {
        let url = URL(string: "https://example.com/a.png")!
        let truncated = ImageDecodingError.truncated(format: .png, reason: "cut")
        #expect(DownloadError.image(truncated, url: url) == .load(.decoding(truncated, url: url)))
        #expect(DownloadError.image(truncated, url: url).shortName == "truncated-image")
        #expect(
            DownloadError.thumbnail(.sourceTooLarge(width: 9, height: 9, limit: 8), url: url).shortName
                == "too-large-source")
        #expect(
            DownloadError.processing(.invalidSize(width: 0, height: 0), url: url)
                == .load(.processing(.invalidSize(width: 0, height: 0), url: url)))
        #expect(DownloadError.manifestNotRegularFile(path: "m").shortName == "unsafe-manifest")
        #expect(DownloadError.cancelled(url: url) == .load(.cancelled(url: url)))
        let status = HTTPError.httpStatus(code: 404, url: url, bodyPrefix: "")
        #expect(DownloadError.fetch(status) == .load(.fetch(status)))
        #expect(DownloadError.fetch(status).shortName == "http-status")
        // The former type names still compile, as aliases of the new ones.
        #expect(FetchError.self == HTTPError.self && ImagePipelineError.self == ImageLoadError.self)
        #expect(FolderVerificationError.self == DownloadError.self)
    }
}
