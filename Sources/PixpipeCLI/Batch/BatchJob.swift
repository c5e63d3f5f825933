import Foundation
import Pixpipe

/// One input of a batch and where its output goes, decided before any work starts.
struct BatchJob: Sendable, Hashable {
    /// The input path as found (given on the command line or under a given directory), or `-`.
    let input: String
    /// The output path, or `nil` when planning already failed or the input is skipped.
    let output: String?
    /// The format written.
    let format: ImageFormat
    /// Whether every frame is kept (`--animated` and an input of several frames), else only the first.
    var keepsFrames = false
    /// Why the input cannot be processed, found while planning (not an image, unreadable...).
    var planningError: BatchFailure?
    /// Why an input that looks like an image is left undone (`HEIF image: not supported`, `empty file`).
    var skipReason: String?
    /// The bytes of standard input, for the input `-`; `nil` for files, which are read by the worker.
    var inputData: Data?
    /// The output's name under the output folder (with its subfolders), as the records name it.
    var recordName: String?
    /// The source as the records name it (an absolute path, or `-`).
    var source: String?
    /// What produces the output (see ``BatchSettings/recipe(format:keepsFrames:)``).
    var recipe = ""
    /// The recipe recorded for the existing output, if any: a different one redoes the output.
    var previousRecipe: String?

    /// A job that planning already decided (failed or skipped), writing nothing.
    init(input: String, failure: BatchFailure) {
        self.input = input
        output = nil
        format = .png
        planningError = failure
    }

    /// A job left undone for `reason`, an input that looks like an image but cannot be read.
    init(input: String, skipReason: String) {
        self.input = input
        output = nil
        format = .png
        self.skipReason = skipReason
    }

    /// A job that writes `output` in `format`.
    init(input: String, output: String, format: ImageFormat) {
        self.input = input
        self.output = output
        self.format = format
    }

    /// The input's bytes: standard input's, kept from planning, or the file's, under `byteLimit`.
    func data(byteLimit: Int?) throws(ImageDecodingError) -> Data {
        if let inputData { return inputData }
        return try Image.readFile(input, byteLimit: byteLimit)
    }
}
