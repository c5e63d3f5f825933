import Pixpipe

/// The options of one `pixpipe convert` run, validated and resolved to what the codecs take.
struct ConvertSettings: Sendable, Hashable {
    /// The format to write (set per input in a batch: see ``ConvertBatchSettings``).
    var format: ImageFormat
    /// Quality 1 to 100 for lossy formats; `nil` for each format's own default.
    let quality: Int?
    /// Progressive JPEG or interlaced PNG.
    let progressive: Bool
    /// Apply the clean aperture and the EXIF orientation to the pixels (the default).
    let appliesOrientation: Bool
    /// Drop the ICC profile and EXIF data.
    let strips: Bool
    /// Write losslessly where the format has a lossless mode beside its lossy one.
    let lossless: Bool
    /// The one frame of an animation to write (`--frame`, from 0), or `nil` for the default: every frame
    /// where the output format holds animations, else the first.
    let frame: Int?
    /// Limits, depth and strictness for the decoder.
    let decodeOptions: DecodeOptions
    /// The thumbnail geometry to resize to, when a size option was given (with the colour conversion, so it
    /// runs on the resized pixels).
    var resize: ThumbnailOptions?
    /// `--background`: the colour transparency is flattened onto; `nil` keeps alpha where the format holds it.
    let background: BackgroundColor?
    /// The colour conversion `--profile` asks for; `nil` keeps pixels and profile.
    let colorConversion: ColorConversion?
    /// `--lossless-jpeg`: the JPEG input's coefficients stored in JPEG XL with what rebuilds the identical file.
    let recompressesJPEG: Bool
    /// Whether only the format changes: no resize, colour conversion, frame, strip, quality, progressive or
    /// lossless option. A JPEG XL file with JPEG reconstruction data then gives back its JPEG as it was.
    let asksNoProcessing: Bool
    /// `--effort`: JPEG XL's encoder effort, 1 to 9; `nil` for libjxl's default.
    let effort: Int?
    /// `--keep-16-bit`.
    let keeps16Bit: Bool
    /// Options given that do nothing for this output format, explained for stderr.
    let ignoredOptionWarnings: [String]

    /// The pixel steps: the resize (turning the image upright unless `--no-orient`, converting colours
    /// after resizing), or the orientation and the colour conversion, or nothing.
    var processing: ImageProcessors.Composition {
        if var resize {
            resize.appliesOrientation = appliesOrientation
            resize.colorConversion = colorConversion
            return ImageProcessors.Composition([.thumbnail(resize)])
        }
        var steps: [any ImageProcessing] = appliesOrientation ? [.orientation] : []
        if let colorConversion { steps.append(ImageProcessors.ColorConversionStep(colorConversion)) }
        return ImageProcessors.Composition(steps)
    }

    /// Whether no step needs the whole image, so rows may stream from decoder to encoder: no resize, colour
    /// conversion, background, frame, `--lossless-jpeg` or `--strip` (which converts a tagged image to sRGB).
    /// The formats and the input's orientation decide the rest (``StreamedConversion``).
    var streamsRows: Bool {
        resize == nil && colorConversion == nil && background == nil && frame == nil && !recompressesJPEG && !strips
    }

    /// The `--format` given, or `nil`.
    static func namedFormat(_ arguments: ParsedArguments) throws(UsageError) -> ImageFormat? {
        try arguments.parsed("format", expected: ImageFormat.writableNames) { name in
            ImageFormat(name: name).flatMap { $0.canEncode ? $0 : nil }
        }
    }

    /// Reads and checks the options; `output` is OUT, whose extension names the format when `--format` is absent.
    init(_ arguments: ParsedArguments, input: String, output: String) throws(UsageError) {
        let format: ImageFormat
        if let named = try Self.namedFormat(arguments) {
            format = named
        } else if output == "-" {
            throw .missingOption("--format", reason: "when OUT is '-' (standard output)")
        } else if let inferred = ImageFormat(path: output), inferred.canEncode {
            format = inferred
        } else if let reason = ImageFormat.unwritableReason(path: output) {
            throw .unwritableFormat(path: output, reason: reason, supported: ImageFormat.writableExtensions)
        } else {
            throw .unrecognizedExtension(path: output, supported: ImageFormat.writableExtensions)
        }
        try self.init(arguments, format: format)
    }

    /// Reads and checks the options, writing `format`.
    init(_ arguments: ParsedArguments, format: ImageFormat) throws(UsageError) {
        self.format = format
        let givenQuality = try arguments.integer("quality", in: 1...100)
        quality = givenQuality
        keeps16Bit = arguments.isSet("keep-16-bit")
        progressive = arguments.isSet("progressive")
        appliesOrientation = !arguments.isSet("no-orient")
        strips = arguments.isSet("strip")
        lossless = arguments.isSet("lossless")
        effort = try arguments.integer("effort", in: 1...9)
        frame = try arguments.integer("frame", in: 0...Int.max)
        // 16-bit samples are kept by default where the output stores them (`--keep-16-bit`, once needed for
        // that, is still accepted and changes nothing); `--depth 8` asks for 8-bit samples.
        let depth = try arguments.parsed("depth", expected: "8 or 16") {
            Int($0).flatMap { [8, 16].contains($0) ? $0 : nil }
        }
        decodeOptions = try LimitOptions(arguments, bytes: .input).applied(
            to: DecodeOptions(
                keeps16Bit: format.keepsDeepSamples && depth != 8,
                strictness: arguments.isSet("lenient") ? .lenient : .strict))

        let resizeSettings = try ResizeSettings(arguments)
        resize = resizeSettings.size.map { resizeSettings.thumbnailOptions(fallback: $0) }
        background = resizeSettings.background
        colorConversion = try ColorSettings(arguments).convertConversion

        recompressesJPEG = arguments.isSet("lossless-jpeg")
        if recompressesJPEG && format != .jxl {
            throw .inapplicableOption(
                "--lossless-jpeg", reason: "writes JPEG XL: OUT needs the .jxl extension (or --format jxl)")
        }
        if recompressesJPEG && (resize != nil || colorConversion != nil || arguments.isSet("frame")) {
            throw .inapplicableOption(
                "--lossless-jpeg", reason: "stores the JPEG as it is: it cannot resize, convert colours or pick a frame"
            )
        }
        asksNoProcessing =
            resize == nil && colorConversion == nil && background == nil && !arguments.isSet("frame")
            && !arguments.isSet("strip")
            && givenQuality == nil && !arguments.isSet("progressive") && !arguments.isSet("lossless") && depth == nil
            && effort == nil

        var warnings: [String] = []
        if givenQuality != nil && !format.usesQuality {
            warnings.append(
                "--quality only applies to \(ImageFormat.qualityNames) output; ignored for \(format.rawValue)")
        }
        if depth == 16 && format.keepsDeepSamples && !format.writes16Bit {
            warnings.append("--depth 16: \(format.rawValue) stores deep samples at 10 bits")
        } else if depth == 16 && !format.writes16Bit {
            warnings.append(
                "--depth 16 only applies to \(ImageFormat.sixteenBitNames) output; \(format.rawValue) gets 8-bit samples"
            )
        }
        if effort != nil && format != .jxl {
            warnings.append("--effort only applies to jxl output; ignored for \(format.rawValue)")
        }
        if progressive && !format.hasProgressiveMode {
            warnings.append("--progressive does not apply to \(format.rawValue) output; ignored")
        }
        if lossless && !format.hasLosslessMode {
            warnings.append(
                "--lossless only applies to \(ImageFormat.losslessNames) output; ignored for \(format.rawValue)")
        }
        ignoredOptionWarnings = warnings
    }

    /// What decides the output's bytes besides the input: the processing's identifier, the format and its
    /// encoding options, the frame, the depth and the background.
    var recipe: String {
        "\(processing.identifier) format:\(format.rawValue) quality:\(quality.map(String.init) ?? "default") progressive:\(progressive)"
            + " lossless:\(lossless) lossless-jpeg:\(recompressesJPEG) strip:\(strips)"
            + " frame:\(frame.map(String.init) ?? "all") 16-bit:\(keeps16Bit)"
            // Options at their defaults add nothing, so outputs made before they existed are not redone.
            + (background.map { " background:\(BackgroundRecipe.text($0))" } ?? "")
            + (effort.map { " effort:\($0)" } ?? "")
    }

    /// The encoding these settings give for ``format``.
    var encoding: ImageEncoding {
        get throws(ImageEncodingError) {
            let standard = StandardEncodeSettings(
                quality: quality, progressive: progressive, keepsMetadata: !strips, lossless: lossless,
                effort: effort)
            guard let encoding = ImageEncoding.standard(for: format, standard) else {
                throw .unsupportedFormat(format)
            }
            return encoding
        }
    }

    /// `image` after the pixel steps, without ICC and EXIF when `--strip` was given.
    func prepared(_ image: Image) throws(ImageProcessingError) -> Image {
        var image = try processing.process(image)
        if let background { image = image.flattened(over: background) }
        if strips {
            // Without its profile a wide-gamut image would be shown as sRGB, duller: its pixels go to sRGB
            // first (an sRGB or untagged image is left as it is). A profile Little CMS cannot use is dropped
            // as before. With --profile the pixels are already in the space asked for.
            if colorConversion == nil,
                let inSRGB = try? image.converted(toColorSpace: .sRGB, options: .init(embedsSRGBProfile: false))
            {
                image = inSRGB
            }
            image.metadata.iccProfile = nil
            image.metadata.exif = nil
        }
        return image
    }
}
