import Pixpipe

/// What the batch engine (``BatchPlanner``, ``BatchRunner``) needs of a command's settings: where outputs
/// go and how they are named, the format and recipe per input, and the run's switches.
protocol BatchSettings: Sendable {
    /// The output directory.
    var outputDirectory: String { get }
    /// Output file names.
    var nameTemplate: OutputNameTemplate { get }
    /// Replace existing outputs instead of skipping them.
    var overwrites: Bool { get }
    /// JSON Lines on standard output.
    var json: Bool { get }
    /// Worker threads.
    var jobs: Int { get }
    /// The most bytes an input may have (`nil`: no limit).
    var byteLimit: Int? { get }
    /// Whether planning reads whole files to count their frames (a GIF says so only by walking them).
    var countsFrames: Bool { get }

    /// The format written for an input, or why it cannot be written.
    func format(for probe: InputProbe) -> Result<ImageFormat, BatchFailure>
    /// Whether the input's every frame is kept.
    func keepsFrames(of probe: InputProbe) -> Bool
    /// The output's size from the input's header, for name templates with `{width}` or `{height}`.
    func outputSize(of info: ImageInfo) throws -> (width: Int, height: Int)
    /// A text naming everything that decides an output's bytes (the processing's identifier, the format
    /// and its encoding options): an output made with another recipe is redone on a rerun.
    func recipe(format: ImageFormat, keepsFrames: Bool) -> String
}
