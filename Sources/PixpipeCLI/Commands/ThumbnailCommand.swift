import Foundation
import Pixpipe

/// `pixpipe thumbnail INPUT... --out DIR`: thumbnails of many images, in parallel, written atomically.
struct ThumbnailCommand: Command {
    let name = "thumbnail"
    let summary = "Make thumbnails of images and folders of images, on every core."
    let usage = "pixpipe thumbnail [OPTIONS] INPUT... --out DIR"
    var details: String {
        """
        INPUT may be files or directories, or '-' for standard input (its thumbnail is DIR/stdin.EXT, written
        over any earlier one, as 'convert - OUT' does). Directories are searched recursively (the output
        directory is left out) and their subfolders are kept under DIR: dcim/100APPLE/IMG_0001.JPG gives
        DIR/100APPLE/IMG_0001.jpg. Files whose bytes are \(ImageFormat.decodableNames) are used. A file that
        looks like an image but is not read (a format no codec here reads, such as BMP, PSD or camera raw,
        named by its bytes or its extension, or an empty file) is reported as skipped with the reason, and
        a file with an image extension whose bytes are no image fails; other files (.txt, .DS_Store) are
        left out quietly. A named file in no decodable format is an error. DIR is created if needed.
        Size: --size N fits the picture in an N x N box (default 256); --resize (or --size) takes a geometry
        as ImageMagick writes it: 50% (scale), 400x or x300 (one side), 400x300 (fit in the box), 400x300!
        (exactly, aspect not kept), 400x300^ (cover the box and crop it around the centre, as --fill does),
        400x300> (only shrink), 400x300< (only enlarge); --width or --height one side, both with --exact an
        exact size. --fill covers the box and crops it around the centre. Pictures are never enlarged without
        --upscale, a scale over 100%, an exact size or '<'. The box is read in upright pixels: the EXIF orientation is applied (after
        resizing, and an AVIF 'clap' crop before it) unless --no-orient is given.
        Format: --format \(ImageFormat.writableNames); by default inputs with alpha give PNG, everything
        else JPEG (quality \(JPEGEncodeOptions.defaultQuality), 4:2:0, optimized Huffman tables); an opaque --background
        COLOR flattens alpha and so gives JPEG. EXIF is kept without its GPS location (--keep-location keeps
        it); --strip drops EXIF and the profile.
        Colour: thumbnails are converted to sRGB through the source's ICC profile (Little CMS) and written
        without a profile, which every viewer shows right; an untagged source is taken as sRGB and left
        as it is. --profile p3|adobergb|gray|FILE converts to that space instead and embeds its profile;
        --keep-profile keeps the source's profile and colours untouched. --intent and --bpc choose the
        rendering intent. A source profile that cannot be used is dropped with a warning.
        Animations: an animated input (\(ImageFormat.animatedInputNames)) gives its first frame; with --animated every
        frame is resized with one geometry and written as an animation with its delays and loop count, as
        \(ThumbnailSettings.defaultAnimationFormat.rawValue) unless --format names another format that holds
        animations (\(ImageFormat.animationNames)).
        Names: --name TEMPLATE with {name} (the input's base name), {dir} (the name of its folder), {width},
        {height} and {ext}; the default is {name}.{ext}. Inputs that map to the same name get -2, -3...
        before the extension, in input order. DIR/.pixpipe-thumbnails.jsonl records which source each
        output name was given to, and the options each output was made with: a name another source holds,
        or a file there no run recorded, is never taken; the input gets the next free suffix. An existing
        output of the same source is skipped with a note (not a failure) unless --overwrite is given or
        the options that make it (size, mode, filter, colour, format, quality, --strip, frames) differ from
        those recorded for it: then it is redone, and the summary counts it as redone. Files are written to
        a temporary file and renamed, so a failure never leaves a partial thumbnail.
        Progress is drawn on standard error only when it is a terminal; a summary line ends the run. Errors
        are reported per file without stopping the batch; the exit status is 1 if any input failed or was
        skipped as not read, 2 if
        --frame N named a frame or page an input does not have (frames and pages count from 0; a still image
        has frame 0 only).
        With --json, one JSON object per input on standard output: input, output, width, height, bytes
        (and redone: true); or input, output, skipped; or input, skipped, reason; or input, error, errorKind.
        Memory: JPEGs are decoded at a reduced DCT scale and PNGs stream through the resizer, so each of
        the --jobs workers holds one input file and little more.

        Examples:
          pixpipe thumbnail ~/Photos --out thumbs --size 320
          pixpipe thumbnail a.jpg b.png --out . --fill --size 128 --name '{name}-{width}x{height}.{ext}'
          pixpipe thumbnail comics/ --out thumbs --animated
          pixpipe thumbnail iphone/ --out thumbs --profile p3
          curl -s https://example.com/a.jpg | pixpipe thumbnail - --out thumbs
        """
    }
    let options: [OptionSpec] =
        [.value("out", short: "o", placeholder: "DIR", help: "The directory thumbnails are written to (required).")]
        + ResizeSettings.options + [
            .value("format", short: "f", placeholder: "FORMAT", help: "Output format: \(ImageFormat.writableNames)."),
            .value(
                "quality", short: "q", placeholder: "N",
                help: "Quality of lossy formats, 1 to 100 (default: \(ImageFormat.defaultQualities))."),
            .flag("strip", help: "Drop the ICC profile and EXIF data."),
            .flag("keep-location", help: "Keep the EXIF GPS location (dropped from thumbnails by default)."),
            ColorSettings.keepProfileOption,
        ] + ColorSettings.options + [
            .flag(
                "animated",
                help: "Keep every frame of animated inputs, resized, in an animation (default format webp)."),
            .flag("no-orient", help: "Keep the stored pixels: no EXIF orientation, no AVIF crop."),
            .flag("lenient", help: "Accept truncated or damaged input, with a warning, instead of failing."),
            .value("jobs", short: "j", placeholder: "N", help: "Worker threads (default: the number of cores)."),
            .flag("overwrite", help: "Replace existing outputs (default: skip them unless options changed)."),
            .value(
                "name", placeholder: "TEMPLATE",
                help: "Output file names: {name}, {dir}, {width}, {height}, {ext} (default {name}.{ext})."),
            .flag("json", help: "Print one JSON object per input and line (JSON Lines)."),
            .value("frame", placeholder: "N", help: "Thumbnail frame or page N (from 0) of multi-frame inputs."),
        ] + LimitOptions.options(bytes: .input, sourcePixels: true)

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitStatus {
        guard !arguments.positionals.isEmpty else { throw .missingArgument("INPUT") }
        let settings = try ThumbnailSettings(arguments)
        do {
            try FileManager.default.createDirectory(
                atPath: settings.outputDirectory, withIntermediateDirectories: true)
        } catch {
            console.error("cannot create \(settings.outputDirectory): \((error as NSError).localizedDescription)")
            return .failure
        }
        let jobs = BatchPlanner(settings: settings).plan(arguments.positionals)
        let maker = ThumbnailMaker(settings: settings)
        let batch = BatchRunner(
            jobs: jobs, settings: settings, context: name, console: console,
            showsProgress: isatty(STDERR_FILENO) == 1, work: maker.make)
        let counts = batch.run()
        let summary = counts.summary(written: ("thumbnail", "thumbnails")) + String(format: " in %.2f s", batch.elapsed)
        console.error(summary, context: "thumbnail")
        // `--frame` past an input's last frame is a usage error, as in `convert`.
        if counts.framesOutOfRange > 0 { return .usage }
        return counts.hasUndone ? .failure : .success
    }
}
