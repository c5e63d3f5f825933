import Foundation
import Pixpipe
import PixpipeLocking

/// Runs thumbnail jobs on a fixed number of threads and reports each result as it comes.
///
/// Workers take the next job from a shared index (a bounded queue: at most `jobs` images are in memory at
/// once). Results, errors and the progress bar are written under one lock, so lines never interleave.
final class ThumbnailBatch: Sendable {
    /// Counts for the summary line.
    struct Counts: Sendable {
        /// Thumbnails written.
        var written = 0
        /// Inputs that failed.
        var failed = 0
        /// Inputs that failed because `--frame` named a frame they do not have (a usage error).
        var framesOutOfRange = 0
        /// Outputs left as they were (they existed, no `--overwrite`).
        var skipped = 0
        /// All of the above.
        var done: Int { written + failed + skipped }
    }

    private struct State {
        var next = 0
        var counts = Counts()
        var lastDraw = 0.0
    }

    private let jobs: [ThumbnailJob]
    private let settings: ThumbnailSettings
    private let console: Console
    private let showsProgress: Bool
    private let start = Date()
    private let state = Locked(State())

    /// A batch of `jobs`; the progress bar is drawn only when `showsProgress` (standard error is a terminal).
    init(jobs: [ThumbnailJob], settings: ThumbnailSettings, console: Console, showsProgress: Bool) {
        self.jobs = jobs
        self.settings = settings
        self.console = console
        self.showsProgress = showsProgress
    }

    /// Runs every job and returns the counts once all are done.
    func run() -> Counts {
        let group = DispatchGroup()
        for _ in 0..<max(1, min(settings.jobs, jobs.count)) {
            group.enter()
            let thread = Thread { [self] in
                while let job = takeJob() { report(job, outcome: process(job)) }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        return state.withLock { state in
            if showsProgress { console.errorText(ProgressBar.clear) }
            return state.counts
        }
    }

    /// Seconds since the batch started.
    var elapsed: Double { Date().timeIntervalSince(start) }

    private enum Outcome {
        case written(width: Int, height: Int, bytes: Int, warnings: [DecodeWarning])
        case skipped
        case failed(ThumbnailFailure)
    }

    private func takeJob() -> ThumbnailJob? {
        state.withLock { state in
            guard state.next < jobs.count else { return nil }
            defer { state.next += 1 }
            return jobs[state.next]
        }
    }

    private func process(_ job: ThumbnailJob) -> Outcome {
        if let error = job.planningError { return .failed(error) }
        guard let output = job.output else {
            return .failed(ThumbnailFailure(message: "no output name", kind: "error"))
        }
        if !settings.overwrites && FileManager.default.fileExists(atPath: output) { return .skipped }
        do {
            let encoder = ThumbnailEncoder(format: job.format, quality: settings.quality, strips: settings.strips)
            if job.keepsFrames {
                let animation = try AnimationThumbnailer(
                    options: settings.options, encoding: encoder.encoding, frameLimit: settings.frameLimit,
                    finishing: settings.finished
                )
                .thumbnail(contentsOfFile: job.input)
                guard try publish(animation.data, to: output) else { return .skipped }
                return .written(
                    width: animation.width, height: animation.height, bytes: animation.data.count,
                    warnings: animation.warnings)
            }
            let thumbnail = try settings.finished(
                pickedFrameThumbnail(job.input) ?? Thumbnailer(settings.options).thumbnail(contentsOfFile: job.input))
            let data = try encoder.encode(thumbnail)
            guard try publish(data, to: output) else { return .skipped }
            return .written(
                width: thumbnail.width, height: thumbnail.height, bytes: data.count,
                warnings: thumbnail.metadata.warnings)
        } catch {
            let failure = ThumbnailFailure(error)
            guard settings.options.strictness == .strict, LenientHint.applies(to: error) else {
                return .failed(failure)
            }
            // The hint is given only when a lenient thumbnail really succeeds: a second decode, on failures only.
            var lenient = settings.options
            lenient.strictness = .lenient
            guard (try? Thumbnailer(lenient).thumbnail(contentsOfFile: job.input)) != nil else {
                return .failed(failure)
            }
            return .failed(ThumbnailFailure(message: failure.message + LenientHint.suffix, kind: failure.kind))
        }
    }

    /// With `--frame N`, the thumbnail of frame or page N of `input` (decoded whole under the thumbnail's
    /// limits, then resized); `nil` without the option.
    private func pickedFrameThumbnail(_ input: String) throws -> Image? {
        guard let index = settings.frame else { return nil }
        let options = settings.options
        let decodeOptions = DecodeOptions(
            pixelLimit: options.pixelLimit, byteLimit: options.byteLimit, strictness: options.strictness,
            frameLimit: settings.frameLimit)
        let data = try InputSource(argument: input).data(byteLimit: options.byteLimit)
        let frame = try AnimationReader(data: data, options: decodeOptions).frame(at: index)
        return try Thumbnailer(options).thumbnail(of: frame.image)
    }

    /// Writes the output: over the file there with `--overwrite` (the name is this source's: see
    /// ``ThumbnailSourceRecords``), else only if the name is still free (`false`: another process or
    /// program put a file there since planning; it is left as it is).
    private func publish(_ data: Data, to output: String) throws(OutputWriteError) -> Bool {
        if settings.overwrites {
            try AtomicFileWriter.writeOutput(data, to: output)
            return true
        }
        return try AtomicFileWriter.writeNewOutput(data, to: output)
    }

    private func report(_ job: ThumbnailJob, outcome: Outcome) {
        let encoder = JSONLineEncoder()
        state.withLock { state in
            if showsProgress { console.errorText(ProgressBar.clear) }
            switch outcome {
            case .written(let width, let height, let bytes, let warnings):
                state.counts.written += 1
                // As `convert` does: benign warnings (and lenient ones) on stderr, the file still written.
                for warning in warnings { console.warning("\(job.input): \(warning)") }
                if settings.json, let output = job.output {
                    console.printLine(
                        encoder.line(
                            for: ThumbnailRecord.written(
                                input: job.input, output: output, width: width, height: height, bytes: bytes)))
                }
            case .skipped:
                state.counts.skipped += 1
                console.warning("\(job.input): skipped, \(job.output ?? "output") exists (use --overwrite)")
                if settings.json, let output = job.output {
                    console.printLine(encoder.line(for: ThumbnailRecord.skipped(input: job.input, output: output)))
                }
            case .failed(let failure):
                state.counts.failed += 1
                if failure.kind == ThumbnailFailure.frameOutOfRangeKind { state.counts.framesOutOfRange += 1 }
                console.error(failure.message, context: "thumbnail: \(job.input)")
                if settings.json {
                    console.printLine(
                        encoder.line(
                            for: ThumbnailRecord.failed(input: job.input, output: job.output, failure: failure)))
                }
            }
            if showsProgress {
                console.errorText(ProgressBar(total: jobs.count).line(done: state.counts.done, elapsed: elapsed))
            }
        }
    }
}
