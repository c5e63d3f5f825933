import Foundation

/// One benchmark's result, printed as a single JSON object on stdout for `scripts/bench`.
struct BenchReport: Encodable {
    /// The subcommand measured (`decode`, `encode-jpeg`, ...).
    var operation: String
    /// How many input files one timed run processes.
    var files: Int
    /// Megapixels processed by one timed run.
    var megapixels: Double
    /// Timed runs after warm-up.
    var repetitions: Int
    /// Median seconds of one timed run.
    var secondsMedian: Double
    /// Fastest timed run, in seconds.
    var secondsMin: Double
    /// Bytes written by one run (encoders), when meaningful.
    var outputBytes: Int?
    /// Frames decoded by one run (`decode-frames`), when meaningful.
    var frames: Int?

    /// Throughput of the median run.
    var megapixelsPerSecond: Double { secondsMedian > 0 ? megapixels / secondsMedian : 0 }

    enum CodingKeys: String, CodingKey {
        case operation = "op"
        case files
        case megapixels
        case repetitions
        case secondsMedian = "seconds_median"
        case secondsMin = "seconds_min"
        case outputBytes = "output_bytes"
        case frames
        case megapixelsPerSecond = "mp_per_s"
    }

    /// A report from the timed runs' durations.
    init(
        operation: String, files: Int, megapixels: Double, seconds: [Double], outputBytes: Int? = nil,
        frames: Int? = nil
    ) {
        self.operation = operation
        self.files = files
        self.megapixels = megapixels
        self.repetitions = seconds.count
        self.secondsMedian = Stopwatch.median(seconds)
        self.secondsMin = seconds.min() ?? 0
        self.outputBytes = outputBytes
        self.frames = frames
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(operation, forKey: .operation)
        try container.encode(files, forKey: .files)
        try container.encode(megapixels, forKey: .megapixels)
        try container.encode(repetitions, forKey: .repetitions)
        try container.encode(secondsMedian, forKey: .secondsMedian)
        try container.encode(secondsMin, forKey: .secondsMin)
        try container.encodeIfPresent(outputBytes, forKey: .outputBytes)
        try container.encodeIfPresent(frames, forKey: .frames)
        try container.encode(megapixelsPerSecond, forKey: .megapixelsPerSecond)
    }

    /// Prints the report as one line of JSON.
    func print() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        if let data = try? encoder.encode(self), let line = String(data: data, encoding: .utf8) {
            Swift.print(line)
        }
    }
}
