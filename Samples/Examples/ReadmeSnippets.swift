// The README's library examples, compiled here so they cannot rot. `scripts/demo` runs none of
// them against the internet; `runHTTPSnippets(baseURL:)` is called only with a loopback server.
import Foundation
import Pixpipe

// MARK: Images

/// README: "Decode, orient, resize, encode".
func imageSnippet(path: String) throws -> Data {
    let image = try Image(contentsOfFile: path)  // any format below, sniffed from the bytes
    print(image.width, image.height, image.pixelFormat, image.metadata.orientation)
    let upright = image.applyingOrientation()  // the EXIF orientation, applied exactly
    let small = try upright.resized(width: upright.width / 4, height: upright.height / 4)  // Lanczos-3
    let jpeg = try small.encoded(as: .jpeg(quality: 85))
    _ = try Image(contentsOfFile: path).flattened(over: .white)  // alpha composited away
    return jpeg
}

/// README: "Limits and strictness".
func limitsSnippet(data: Data) throws -> Image {
    var options = DecodeOptions(pixelLimit: 50_000_000)  // refuse more than 50 MP, before allocating
    options.strictness = .lenient  // a truncated file decodes, with a warning
    options.jpegScale = .atLeast(width: 512, height: 512)  // libjpeg's DCT scaling: decode small
    let image = try Image(data: data, options: options)
    for warning in image.metadata.warnings { print("warning:", warning) }
    return image
}

/// README: animations, frame by frame, re-encoded as an animated WebP.
func animationSnippet(gif: Data) throws -> Data {
    let reader = try AnimationReader(data: gif)
    var frames: [AnimationFrame] = []
    while let frame = try reader.nextFrame() { frames.append(frame) }  // frame.image, frame.duration
    let webp = try ImageEncoding.webp.encodeAnimation(frames, loopCount: reader.loopCount)
    return webp
}

/// README: "Processing as values".
func processingSnippet(data: Data) throws -> Data {
    let steps = ImageProcessors.Composition([
        .thumbnail(ThumbnailOptions(size: .box(256))), .resize(width: 128, height: 128),
    ])
    print(steps.identifier)  // thumbnail(box:256x256,...)|resize(128x128,...): a cache key
    let small = try steps.process(data: data, options: DecodeOptions())  // the thumbnail decodes small
    return try small.encoded(as: .png)
}

/// README: "Use it as a library", images in one line each: read a file, its size as shown, a resize to
/// fit, an atomic write whose format follows the extension.
func oneLineImageSnippet(folder: URL) throws {
    let photo = try Image(contentsOf: folder.appendingPathComponent("photo.jpg"))
    print(photo.width, photo.height, photo.shownSize)  // 1800 1200 1200x1800: stored pixels, then as shown
    let small = try photo.resized(toFit: ImageSize(width: 400, height: 400))  // aspect kept, never enlarged
    try small.write(to: folder.appendingPathComponent("small.webp"), quality: 80)  // format from the extension
    try small.write(to: folder.appendingPathComponent("small.png"), as: .png)  // or named; atomic either way
}

/// README: "Use it as a library", the shared pipeline: web and local images, cached in memory and on the
/// disk (`$XDG_CACHE_HOME/pixpipe`, `~/.cache/pixpipe` or `~/Library/Caches/pixpipe`).
func sharedPipelineSnippet(webURL: URL, folder: URL) async throws -> [Image] {
    let remote = try await ImagePipeline.shared.image(for: webURL)  // fetched once, then from the caches
    let local = try await ImagePipeline.shared.image(for: folder.appendingPathComponent("icon.png"))  // file://
    return [remote, local]
}

// MARK: HTTP

/// README: a model decoded from the JSON found at a key path.
struct Comic: DecodableResponse {
    static var keyPath: String? { "data.comic" }
    var title: String
    var img: URL
}

/// README: a conformance of your own, in a few lines.
struct Lines: ResponseConvertible {
    var lines: [String]

    init(body: Data, metadata: ResponseMetadata) throws(ConversionError) {
        lines = try String(body: body, metadata: metadata).split(separator: "\n").map(String.init)
    }
}

/// README: "Typed requests".
func httpSnippets(baseURL: URL) async throws(HTTPError) {
    let client = HTTPClient(configuration: .init(baseURL: baseURL))

    let comic = try await client.send(Request<Comic>(path: "/api/comic.json"))
    let cover = try await client.send(Request<Image>(url: comic.img))
    let json = try await client.send(Request<JSON>(path: "/api/models.json"))
    let firstModel = json["data.model_list.0.name"]?.stringValue
    let names = try await client.send(Request<Lines>(path: "/names.txt"))
    print(comic.title, cover.width, firstModel ?? "-", names.lines.count)

    // Or with a completion handler, which hands back something to cancel.
    let task = Request<Image>(url: comic.img).response { result in
        switch result {
        case .success(let image): print(image.width)
        case .failure(let error): print(error)
        }
    }
    _ = task
}

/// README: any `Decodable` model, no conformance needed.
struct Model: Decodable {
    var name: String
}

/// README: "Any Decodable, a key path per request" and "Base URLs".
func decodableSnippets(baseURL: URL) async throws(HTTPError) {
    // The base is a folder, with or without its trailing slash: "models.json" is /api/models.json.
    let api = HTTPClient(configuration: .init(baseURL: baseURL.appending(path: "api")))
    let models = try await api.send(Request<[Model]>(path: "models.json", keyPath: "data.model_list"))
    let featured = try await api.send(Request<[Model]>(path: "home.json", keyPath: "featured.models"))
    let first = try await api.send(Request<Model>(path: "models.json", keyPath: "data.model_list.0"))
    let root = try await api.send(Request<[Model]>(path: "/models.json"))  // a leading "/" starts at the host
    print(models.count, featured.count, first.name, root.count)
}

/// README: "Errors from an image request".
func imageErrorSnippet(url: URL) async {
    do {
        let image = try await HTTPClient.shared.image(for: url)  // throws ImageLoadError, as the pipeline does
        print(image.width, image.height)
    } catch .decoding(.truncated(let format, _), _) {
        print("the \(format) file was cut short")
    } catch .fetch(.conversionFailed(.htmlPage(let title, _), _)) {
        print("got a web page instead:", title ?? "untitled")
    } catch .fetch(let error) {
        // One line: "https://... answered HTTP 404: <!DOCTYPE html> <html> ...", 120 characters of body at most.
        print(error)
        print(error.bodyExcerpt ?? "")  // the longer excerpt (200 characters), still one escaped line
    } catch {
        print(error.shortName, error)
    }
}

/// README: "The transport's thread as an executor".
func transportExecutorSnippet(urls: [URL]) async {
    let client = HTTPClient(transport: .curl)
    await withTaskGroup(of: Void.self) { group in
        for url in urls {
            group.addTask(executorPreference: client.transport.taskExecutor) {
                _ = try? await client.send(Request<Data>(url: url))
            }
        }
    }
}

// MARK: Thumbnails

/// README: "Thumbnails".
func thumbnailSnippet(gifData: Data) throws -> (Data, Data) {
    let thumbnailer = Thumbnailer(ThumbnailOptions(size: .box(256), mode: .fill))
    let thumbnail = try thumbnailer.thumbnail(contentsOfFile: "photo.jpg")  // upright, sRGB, no profile
    let jpeg = try ThumbnailEncoder(format: .jpeg, quality: 85).encode(thumbnail)

    // Every frame of a GIF, animated WebP, AVIF or JPEG XL, resized alike, as one animation with its delays and loops:
    let animated = AnimationThumbnailer(options: ThumbnailOptions(size: .box(128)), encoding: .webp)
    let webp = try animated.thumbnail(data: gifData).data
    return (jpeg, webp)
}

// MARK: Colour

/// README: "Colour".
func colorSnippet(path: String, iccFile: Data) throws -> Image {
    let photo = try Image(contentsOfFile: path)  // an iPhone photo: Display P3 profile
    print(try photo.colorProfile()?.profileDescription ?? "sRGB")  // Display P3
    let web = try photo.converted(toColorSpace: .sRGB)  // through Little CMS; sRGB profile embedded
    _ = try web.converted(toColorSpace: .sRGB)  // already sRGB: the same pixels, no transform
    let proofProfile = try ColorProfile(iccData: [UInt8](iccFile))
    return try photo.converted(
        toColorSpace: .profile(proofProfile),
        options: ColorConversionOptions(intent: .relativeColorimetric, blackPointCompensation: true))
}

// MARK: Downloads

/// README: "Downloading a batch".
func downloaderSnippet(urls: [URL]) async {
    var options = DownloadOptions(outputDirectory: URL(fileURLWithPath: "comics"))
    options.processing = [.thumbnail(ThumbnailOptions(size: .box(256)))]
    options.outputEncoding = .jpeg
    let downloader = Downloader(options: options)
    var progress = DownloadProgress(total: urls.count)
    for await event in downloader.run(urls.map { DownloadItem(url: $0) }) {
        progress.record(event)  // running totals: finished, ok, failed, skipped, bytesReceived, of total
        switch event {
        case .finished(_, let record): print("\(progress.finished)/\(urls.count)", record.status, record.name ?? "")
        case .stopped(let summary): print("\(summary.ok) ok, \(summary.failed) failed", summary.skippedByReason)
        default: break
        }
    }
}
