import Foundation
import Pixpipe

/// The options of one `pixpipe thumbnail` run, validated.
struct ThumbnailSettings: BatchSettings {
    /// The output directory.
    let outputDirectory: String
    /// Size, mode, filter and limits.
    let options: ThumbnailOptions
    /// The format to write; `nil` picks per input (PNG for inputs with alpha, else JPEG).
    let format: ImageFormat?
    /// Quality 1 to 100 for lossy formats; `nil` for each format's own default.
    let quality: Int?
    /// Drop ICC and EXIF.
    let strips: Bool
    /// Worker threads.
    let jobs: Int
    /// Replace existing outputs instead of skipping them.
    let overwrites: Bool
    /// Output file names.
    let nameTemplate: OutputNameTemplate
    /// JSON Lines on standard output.
    let json: Bool
    /// Keep every frame of an animated input (`--animated`), else only the first.
    let animated: Bool
    /// `--max-frames`: the most frames an animated input kept whole may declare; `nil` for no limit.
    let frameLimit: Int?
    /// `--frame N`: the frame or page (from 0) to thumbnail instead of the first; `nil` for the first.
    let frame: Int?
    /// `--background`: the colour transparency is flattened onto; `nil` keeps alpha where the format holds it.
    let background: BackgroundColor?
    /// `--keep-location`: keep the EXIF GPS directory, which thumbnails drop by default.
    let keepsLocation: Bool

    /// The format an animated input gets with `--animated` and no `--format`.
    static let defaultAnimationFormat = ImageFormat.webp

    /// The default box side.
    static let defaultSide = 256

    /// Reads and checks the options.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let out = arguments.value("out"), !out.isEmpty else {
            throw .missingOption("--out", reason: "to name the directory thumbnails are written to")
        }
        outputDirectory = out
        let resize = try ResizeSettings(arguments)
        background = resize.background
        keepsLocation = arguments.isSet("keep-location")
        var options = resize.thumbnailOptions(fallback: .box(Self.defaultSide))
        options.appliesOrientation = !arguments.isSet("no-orient")
        options.colorConversion = try ColorSettings(arguments).thumbnailConversion(
            keepsProfile: arguments.isSet("keep-profile"))
        options.strictness = arguments.isSet("lenient") ? .lenient : .strict
        let limits = try LimitOptions(arguments, bytes: .input)
        options = limits.applied(to: options)
        frameLimit = limits.frames ?? DecodeOptions.defaultFrameLimit
        frame = try arguments.integer("frame", in: 0...Int.max)
        jobs = try arguments.integer("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        // Each worker resizes one image; more threads per resize would only compete with the other workers.
        options.maximumConcurrency = jobs > 1 ? 1 : nil
        self.options = options
        format = try arguments.parsed("format", expected: ImageFormat.writableNames) { name -> ImageFormat? in
            ImageFormat(name: name).flatMap { $0.canEncode ? $0 : nil }
        }
        quality = try arguments.integer("quality", in: 1...100)
        strips = arguments.isSet("strip")
        overwrites = arguments.isSet("overwrite")
        nameTemplate =
            try arguments.value("name").map { (text) throws(UsageError) in try OutputNameTemplate(text) }
            ?? .standard
        json = arguments.isSet("json")
        animated = arguments.isSet("animated")
        if animated, let format, !format.canEncodeAnimation {
            throw .invalidValue(
                option: "--format", value: format.rawValue,
                expected: "a format that holds animations with --animated: \(ImageFormat.animationNames)")
        }
    }

    /// The format written for an input: `--format`, else WebP for animations kept whole, else PNG for inputs
    /// with alpha, else JPEG.
    func format(for probe: InputProbe) -> Result<ImageFormat, BatchFailure> {
        if let format { return .success(format) }
        if keepsFrames(of: probe) { return .success(Self.defaultAnimationFormat) }
        // An opaque --background leaves no alpha to keep.
        let keepsAlpha = probe.hasAlpha && (background.map { $0.alpha < 255 } ?? true)
        return .success(ThumbnailFormatRule.format(hasAlpha: keepsAlpha))
    }

    /// A resized thumbnail made ready to encode: flattened onto `--background` when one was given, and
    /// without the EXIF location unless `--keep-location`: thumbnails are made to be shared.
    @Sendable func finished(_ thumbnail: Image) -> Image {
        var image = background.map { thumbnail.flattened(over: $0) } ?? thumbnail
        if !keepsLocation { image.metadata.removeLocation() }
        return image
    }

    /// Whether the input's every frame is thumbnailed: `--animated` and more than one frame.
    func keepsFrames(of probe: InputProbe) -> Bool {
        animated && probe.frameCount > 1
    }

    /// The input's byte limit (`--max-bytes`).
    var byteLimit: Int? { options.byteLimit }

    /// `--animated` counts every input's frames while planning.
    var countsFrames: Bool { animated }

    /// The thumbnail's size from the input's header, turned upright unless `--no-orient`.
    func outputSize(of info: ImageInfo) throws -> (width: Int, height: Int) {
        let shown =
            options.appliesOrientation
            ? info.metadata.shownSize(width: info.width, height: info.height) : (width: info.width, height: info.height)
        let geometry = try ThumbnailGeometry(sourceWidth: shown.width, sourceHeight: shown.height, options: options)
        return (geometry.outputWidth, geometry.outputHeight)
    }

    /// `thumbnail(...)` of the geometry and colour, then the format, quality, `strip`, the frame kept, and
    /// `--background` and `--keep-location` when given.
    func recipe(format: ImageFormat, keepsFrames: Bool) -> String {
        let frames = keepsFrames ? "all" : frame.map(String.init) ?? "first"
        // Options at their defaults add nothing, so outputs made before they existed are not redone.
        return ImageProcessors.Thumbnail(options).identifier
            + " format:\(format.rawValue) quality:\(quality.map(String.init) ?? "default") strip:\(strips) frames:\(frames)"
            + (background.map { " background:\(BackgroundRecipe.text($0))" } ?? "")
            + (keepsLocation ? " keep-location" : "")
    }
}
