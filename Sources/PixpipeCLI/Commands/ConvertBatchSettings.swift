import Foundation
import Pixpipe

/// The options of `pixpipe convert INPUT... DIR`: the single-file settings for every input, and where and
/// how the outputs are written.
struct ConvertBatchSettings: BatchSettings {
    /// The conversion settings; their format is `--format`'s, or set per input.
    let conversion: ConvertSettings
    /// `--format`, or `nil` to keep each input's format (where it is writable).
    let namedFormat: ImageFormat?
    /// The output folder (the last argument).
    let outputDirectory: String
    /// Output file names (`--name`).
    let nameTemplate: OutputNameTemplate
    /// `--overwrite`.
    let overwrites: Bool
    /// `--json`.
    let json: Bool
    /// `--jobs`: worker threads.
    let jobs: Int

    /// Reads and checks the options; `output` is the output folder.
    init(_ arguments: ParsedArguments, output: String) throws(UsageError) {
        namedFormat = try ConvertSettings.namedFormat(arguments)
        jobs = try arguments.integer("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        var conversion = try ConvertSettings(arguments, format: namedFormat ?? .png)
        // Each worker resizes one image; more threads per resize would only compete with the other workers.
        conversion.resize?.maximumConcurrency = jobs > 1 ? 1 : nil
        self.conversion = conversion
        outputDirectory = output
        nameTemplate =
            try arguments.value("name").map { (text) throws(UsageError) in try OutputNameTemplate(text) }
            ?? .standard
        overwrites = arguments.isSet("overwrite")
        json = arguments.isSet("json")
    }

    /// The input's byte limit (`--max-bytes`).
    var byteLimit: Int? { conversion.decodeOptions.byteLimit }

    /// Frames are counted by the conversion itself, from the whole file.
    var countsFrames: Bool { false }

    /// `--format`, else the input's own format when it is written here.
    func format(for probe: InputProbe) -> Result<ImageFormat, BatchFailure> {
        if let namedFormat { return .success(namedFormat) }
        if probe.format.canEncode { return .success(probe.format) }
        return .failure(
            BatchFailure(
                message:
                    "\(probe.format.rawValue) is read but not written: give --format (\(ImageFormat.writableNames))",
                kind: ImageEncodingError.unsupportedFormat(probe.format).shortName))
    }

    /// Animations are kept or not by the conversion (``Conversion``), by what the format holds.
    func keepsFrames(of probe: InputProbe) -> Bool { false }

    /// The output's size: the resize's, else the input's (upright unless `--no-orient`).
    func outputSize(of info: ImageInfo) throws -> (width: Int, height: Int) {
        let shown =
            conversion.appliesOrientation
            ? info.metadata.shownSize(width: info.width, height: info.height) : (width: info.width, height: info.height)
        guard let resize = conversion.resize else { return shown }
        let geometry = try ThumbnailGeometry(sourceWidth: shown.width, sourceHeight: shown.height, options: resize)
        return (geometry.outputWidth, geometry.outputHeight)
    }

    /// The conversion's recipe for `format`.
    func recipe(format: ImageFormat, keepsFrames: Bool) -> String {
        settings(for: format).recipe
    }

    /// The conversion settings writing `format`.
    func settings(for format: ImageFormat) -> ConvertSettings {
        var settings = conversion
        settings.format = format
        return settings
    }
}
