import Foundation
import Pixpipe

/// `pixpipe convert IN OUT`: decodes one image and writes it in another format, atomically; `pixpipe convert
/// INPUT... DIR` does so for many files and folders into a folder, on every core.
struct ConvertCommand: Command {
    let name = "convert"
    var summary: String { "Convert an image, or many into a folder, to \(ImageFormat.writableNames)." }
    let usage = "pixpipe convert [OPTIONS] IN OUT\n       pixpipe convert [OPTIONS] INPUT... DIR"
    var details: String {
        """
        The input format is read from the bytes; the output format from OUT's extension (\(extensions)) or from
        --format, which wins when both are given. IN '-' reads standard input;
        OUT '-' writes standard output and then needs --format.
        The EXIF orientation is applied by default, so the output is upright (an AVIF 'clap' crop is cut
        first); --no-orient keeps every stored pixel in its order (and the orientation tag, where the output
        format carries EXIF).
        OUT is replaced if it exists. It is written to a temporary file beside it, synced, then renamed, so a
        failed conversion leaves OUT as it was and no partial file behind.
        Netpbm output: 'ppm' writes PGM (gray) or PPM (colour) with alpha composited over white; 'pam'
        keeps alpha. 16-bit samples are written big-endian with MAXVAL 65535.
        Batch: with several inputs, or when the last argument is an existing folder or ends in '/', or is a
        name without an image extension after an input folder, the last argument is an output folder (made
        if needed). Inputs may be files or folders, searched recursively (the output folder left out);
        subfolders are kept under DIR. Every output is in --format, else in its input's format where that is
        written here (an input in a format only read needs --format). Names (--name, with {name}, {dir},
        {width}, {height}, {ext}), suffixes for clashes, the records file, skipping existing outputs unless
        --overwrite (or unless the options that made them changed: then they are redone), reporting, --json
        records, --jobs and the exit status are as for 'pixpipe thumbnail'. A file under a folder that looks
        like an image but is not read is reported as skipped with its reason, and makes the exit status 1.
        Resizing (--size, --resize, --width, --height, --fill, --exact, --upscale, --filter, --linear) follows
        the same rules as 'pixpipe thumbnail': --resize takes ImageMagick's geometry (50%, 400x, x300,
        400x300 to fit, 400x300! exactly, 400x300^ to cover and crop centred, 400x300> only shrink,
        400x300< only enlarge); the box is read in upright pixels and nothing is enlarged without
        --upscale, a scale over 100%, an exact size or '<'. --background COLOR flattens transparency onto
        COLOR (a name, #rrggbb or #rrggbbaa); without it, alpha is kept where the output holds it and
        composited over white where it does not (JPEG).
        Depth: 16-bit samples are kept where the output stores them (\(ImageFormat.sixteenBitNames)), and
        stored at 10 bits in \(ImageFormat.tenBitNames); --depth 8 writes 8-bit samples.
        Colour: pixels and the ICC profile are kept as they are unless --profile srgb|p3|adobergb|gray|FILE
        is given: then colours are converted from the input's profile (none means sRGB) through Little CMS,
        after any resize, and the target's profile is embedded (--strip drops it). --strip without --profile
        converts the colours to sRGB before dropping a profile, so a wide-gamut image does not turn dull. --intent and --bpc
        choose the rendering intent.
        Animations: an input of several frames (\(ImageFormat.animatedInputNames)) stays an animation when the
        output format holds one (\(ImageFormat.animationNames)): every frame, resized and turned upright like a
        still, with its delay and the loop count. Other formats get the first frame, with a note on stderr;
        --frame N (from 0) writes frame N alone; it picks from any input the codec reads frame by frame,
        a TIFF's pages too (a TIFF of several pages otherwise gives its first, with a note). N past the last
        frame is a usage error (exit status 2). --lossless writes \(ImageFormat.losslessNames) losslessly.
        JPEG XL: --lossless-jpeg (a JPEG input, a .jxl output) stores the JPEG's DCT coefficients with the
        data that rebuilds the file, in a smaller file with no pixel changed; converting such a .jxl to .jpg
        with no other option then writes back the identical JPEG bytes (any other option decodes and
        re-encodes). --effort N (1 fastest to 9 smallest, default \(JXLEncodeOptions.defaultEffort)) trades encoding
        time for size, for --lossless-jpeg too.

        Examples:
          pixpipe convert photo.png photo.jpg --quality 90
          pixpipe convert --format ppm scan.jpg - | pnmtopng > scan.png
          pixpipe convert anim.gif anim.webp --lossless
          pixpipe convert anim.gif poster.png --frame 3
          pixpipe convert print.jpg web.jpg --profile srgb
          pixpipe convert photo.jpg photo.jxl --lossless-jpeg
          pixpipe convert a.jpg b.png out/
          pixpipe convert photos/ out/ --format webp --size 2048
        """
    }

    /// The output extensions, `.png .jpg ...`.
    private var extensions: String { ImageFormat.writableExtensions.map { "." + $0 }.joined(separator: " ") }
    let options: [OptionSpec] =
        [
            .value("format", short: "f", placeholder: "FORMAT", help: "Output format: \(ImageFormat.writableNames)."),
            .value(
                "quality", short: "q", placeholder: "N",
                help: "Quality of lossy formats, 1 to 100 (default: \(ImageFormat.defaultQualities))."),
            .flag("progressive", help: "Write a progressive or interlaced file (\(ImageFormat.progressiveNames))."),
            .value(
                "depth", placeholder: "8|16",
                help:
                    "Bits per sample; default 16 where the input and output have them (\(ImageFormat.sixteenBitNames))."
            ),
            .flag("keep-16-bit", help: "Accepted for old scripts: 16-bit samples are kept by default."),
            .flag("no-orient", help: "Keep the stored pixels: no EXIF orientation, no AVIF crop."),
            .flag("strip", help: "Drop the ICC profile (converting the colours to sRGB first) and EXIF data."),
            .flag(
                "lossless",
                help: "Encode losslessly where the format also has a lossy mode (\(ImageFormat.losslessNames))."),
            .flag(
                "lossless-jpeg",
                help: "JPEG input to .jxl: keep the JPEG's coefficients, so converting back gives the same file."),
            .value(
                "effort", placeholder: "N",
                help:
                    "JPEG XL encoder effort: 1 (fastest) to 9 (slowest, smallest); default \(JXLEncodeOptions.defaultEffort)."
            ),
            .value("frame", placeholder: "N", help: "Write frame or page N (from 0) of a multi-frame input alone."),
            .flag("lenient", help: "Accept truncated or damaged input, with a warning, instead of failing."),
            .value("jobs", short: "j", placeholder: "N", help: "Batch: worker threads (default: the number of cores)."),
            .flag("overwrite", help: "Batch: replace existing outputs (default: skip them unless options changed)."),
            .value("name", placeholder: "TEMPLATE", help: "Batch: output file names (default {name}.{ext})."),
            .flag("json", help: "Batch: print one JSON object per input and line (JSON Lines)."),
        ] + ResizeSettings.options + ColorSettings.options + LimitOptions.options(bytes: .input)

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitStatus {
        if try Self.isBatch(arguments.positionals) { return try runBatch(arguments, console: console) }
        let paths = try arguments.positionals(named: ["IN", "OUT"])
        let settings = try ConvertSettings(arguments, input: paths[0], output: paths[1])
        for warning in settings.ignoredOptionWarnings { console.warning(warning) }
        let source = InputSource(argument: paths[0])
        if let missing = OutputWriteError.missingFolder(of: paths[1]) {
            console.error(missing.description, context: "convert: \(paths[1])")
            return .failure
        }
        if case .file(let path) = source, paths[1] != "-" {
            switch streamed(path, to: paths[1], settings: settings, console: console) {
            case .some(let status): return status
            case .none: break
            }
        }
        let input: Data
        do {
            input = try source.data(byteLimit: settings.decodeOptions.byteLimit)
        } catch {
            console.error(String(describing: error), context: "convert: \(source.displayName)")
            return .failure
        }
        if settings.recompressesJPEG, ImageFormat.sniff(input) != .jpeg {
            let found = ImageFormat.sniff(input).map { "a \($0.rawValue) file" } ?? "not an image this tool reads"
            throw .inapplicableOption(
                "--lossless-jpeg", reason: "needs a JPEG input: \(source.displayName) is \(found)")
        }
        do {
            let conversion = Conversion(settings: settings, inputName: source.displayName, console: console)
            let product = try conversion.product(for: input)
            if paths[1] == "-" {
                try console.writeOutput(product.data())
            } else if case .still(let image, let encoding) = product,
                try AtomicFileWriter.writeOutput(image, as: encoding, to: paths[1])
            {
                // Encoded straight into the file.
            } else {
                try AtomicFileWriter.writeOutput(product.data(), to: paths[1])
            }
            return .success
        } catch let error as FrameOutOfRange {
            console.error(error.description, context: "convert: \(source.displayName)")
            return .usage
        } catch {
            console.error(
                String(describing: error) + lenientHint(for: error, input: input, settings: settings),
                context: "convert: \(source.displayName)")
            return .failure
        }
    }

    /// Converts `input` to `output` with rows streamed from decoder to encoder where the settings and the
    /// formats allow it (``StreamedConversion``); `nil` when they do not, and nothing was written.
    private func streamed(_ input: String, to output: String, settings: ConvertSettings, console: Console)
        -> ExitStatus?
    {
        guard settings.streamsRows else { return nil }
        do {
            let result = try StreamedConversion.convert(
                contentsOfFile: input, to: output, as: settings.encoding, options: settings.decodeOptions,
                appliesOrientation: settings.appliesOrientation)
            guard let result else { return nil }
            for warning in result.warnings { console.warning("\(input): \(warning)") }
            return .success
        } catch let failure as AtomicFileWriter.Failure {
            console.error(AtomicFileWriter.outputError(failure, path: output).description, context: "convert: \(input)")
            return .failure
        } catch let error as ImageDecodingError {
            let hint = settings.decodeOptions.strictness == .strict && LenientHint.applies(to: error)
            let lenient = hint ? lenientHint(forFile: input, settings: settings) : ""
            console.error(String(describing: error) + lenient, context: "convert: \(input)")
            return .failure
        } catch {
            console.error(String(describing: error), context: "convert: \(input)")
            return .failure
        }
    }

    /// ``LenientHint/suffix`` when a lenient decode of the file at `path` gets through.
    private func lenientHint(forFile path: String, settings: ConvertSettings) -> String {
        var options = settings.decodeOptions
        options.strictness = .lenient
        // Row by row where the file gives rows, so the check never holds the image the conversion streamed.
        let decodes =
            StreamedConversion.decodesThrough(contentsOfFile: path, options: options)
            ?? ((try? Image(contentsOfFile: path, options: options)) != nil)
        return decodes ? LenientHint.suffix : ""
    }

    /// Whether the command line asks for a batch: OUT an existing folder, or ending in `/`, or several
    /// inputs (OUT then must not be named like an image file), or OUT without an image extension after an
    /// input folder.
    static func isBatch(_ positionals: [String]) throws(UsageError) -> Bool {
        guard positionals.count >= 2, let output = positionals.last else { return false }
        if output.hasSuffix("/") { return true }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), isDirectory.boolValue {
            return true
        }
        if positionals.count > 2 {
            // `convert a.jpg b.jpg c.png` most likely forgot a folder; ImageMagick would write one file of all.
            if ImageFormat(path: output) != nil { throw .outputFileForSeveralInputs(output) }
            return true
        }
        let input = positionals[0]
        return input != "-" && FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory)
            && isDirectory.boolValue && ImageFormat(path: output) == nil
    }

    /// `convert INPUT... DIR`: every input converted into DIR by the batch engine `thumbnail` uses.
    private func runBatch(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitStatus {
        let inputs = Array(arguments.positionals.dropLast())
        let output = arguments.positionals[arguments.positionals.count - 1]
        let settings = try ConvertBatchSettings(arguments, output: output)
        if settings.namedFormat != nil {
            for warning in settings.conversion.ignoredOptionWarnings { console.warning(warning) }
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            console.error("cannot create \(output): \((error as NSError).localizedDescription)")
            return .failure
        }
        let jobs = BatchPlanner(settings: settings).plan(inputs)
        let batch = BatchRunner(
            jobs: jobs, settings: settings, context: name, console: console,
            showsProgress: isatty(STDERR_FILENO) == 1,
            streamedWork: { job, output, replacing in
                try streamedItem(job, to: output, replacing: replacing, settings: settings.settings(for: job.format))
            }
        ) { job in
            let conversion = settings.settings(for: job.format)
            let data = try job.data(byteLimit: conversion.decodeOptions.byteLimit)
            let output: Data
            do {
                output = try Conversion(settings: conversion, inputName: job.input, console: console).output(for: data)
            } catch {
                let hint = lenientHint(for: error, input: data, settings: conversion)
                guard !hint.isEmpty else { throw error }
                let failure = BatchFailure(error)
                throw BatchFailure(message: failure.message + hint, kind: failure.kind)
            }
            // The size written, from the output's own header (cheap: the bytes are in memory).
            let info = try? Image.info(data: output, options: DecodeOptions(pixelLimit: nil))
            return BatchProduct(data: output, width: info?.width ?? 0, height: info?.height ?? 0, warnings: [])
        }
        let counts = batch.run()
        let summary = counts.summary(written: ("converted", "converted")) + String(format: " in %.2f s", batch.elapsed)
        console.error(summary, context: name)
        if counts.framesOutOfRange > 0 { return .usage }
        return counts.hasUndone ? .failure : .success
    }

    /// One batch item converted with rows streamed (``StreamedConversion``) where the single-file path would
    /// stream; `nil`, with nothing written, where it would not.
    private func streamedItem(_ job: BatchJob, to output: String, replacing: Bool, settings: ConvertSettings)
        throws -> StreamedBatchOutcome?
    {
        guard settings.streamsRows else { return nil }
        let outcome: StreamedConversion.Outcome?
        do {
            outcome = try StreamedConversion.convert(
                contentsOfFile: job.input, to: output, as: settings.encoding, options: settings.decodeOptions,
                appliesOrientation: settings.appliesOrientation, replacing: replacing)
        } catch let failure as AtomicFileWriter.Failure {
            throw AtomicFileWriter.outputError(failure, path: output)
        } catch let error as ImageDecodingError {
            let hint = settings.decodeOptions.strictness == .strict && LenientHint.applies(to: error)
            let lenient = hint ? lenientHint(forFile: job.input, settings: settings) : ""
            guard !lenient.isEmpty else { throw error }
            let failure = BatchFailure(error)
            throw BatchFailure(message: failure.message + lenient, kind: failure.kind)
        }
        switch outcome {
        case .none: return nil
        case .taken: return .taken
        case .written(let result):
            var status = stat()
            let bytes = stat(output, &status) == 0 ? Int(status.st_size) : 0
            return .written(
                BatchProduct(
                    writtenBytes: bytes, width: result.width, height: result.height, warnings: result.warnings))
        }
    }

    /// ``LenientHint/suffix`` when a strict decode failed on data a lenient decode of `input` gets through.
    private func lenientHint(for error: any Error, input: Data, settings: ConvertSettings) -> String {
        guard settings.decodeOptions.strictness == .strict, LenientHint.applies(to: error) else { return "" }
        var options = settings.decodeOptions
        options.strictness = .lenient
        // A second decode, on failures only, so the hint is never given when it would not help.
        return (try? Image(data: input, options: options)) != nil ? LenientHint.suffix : ""
    }
}
