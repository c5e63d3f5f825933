import Foundation
import Pixpipe
import PixpipeLocking

/// What a batch's work made of one input: the encoded file, its size and the decoder's warnings.
struct BatchProduct: Sendable {
    /// The encoded output; empty when the work wrote the file itself (streamed).
    let data: Data
    /// The output's size in bytes.
    let byteCount: Int
    /// The output's width.
    let width: Int
    /// The output's height.
    let height: Int
    /// Warnings to show (benign or lenient decodes), the file still written.
    let warnings: [DecodeWarning]

    /// Encoded bytes for the runner to write.
    init(data: Data, width: Int, height: Int, warnings: [DecodeWarning]) {
        self.data = data
        byteCount = data.count
        self.width = width
        self.height = height
        self.warnings = warnings
    }

    /// A file the work already wrote, of `byteCount` bytes.
    init(writtenBytes byteCount: Int, width: Int, height: Int, warnings: [DecodeWarning]) {
        data = Data()
        self.byteCount = byteCount
        self.width = width
        self.height = height
        self.warnings = warnings
    }
}

/// What a job's streamed work came to: the file written, or its name found taken (nothing changed).
enum StreamedBatchOutcome: Sendable {
    /// The output file is written.
    case written(BatchProduct)
    /// The output was new and another writer took its name meanwhile.
    case taken
}

/// Runs the jobs of a batch (`thumbnail`, `convert` into a folder) on a fixed number of threads and reports
/// each result as it comes.
///
/// Workers take the next job from a shared index (a bounded queue: at most `jobs` images are in memory at
/// once). With more than one worker the largest inputs are taken first: a batch lasts at least as long as
/// its longest job, and one large photo started last would keep a single core busy after the others run
/// dry. Results, errors and the progress bar are written under one lock, so lines never interleave. The
/// runner owns the rules every batch shares: an existing output is skipped unless `--overwrite` is given or
/// the recipe recorded for it differs from this run's (then it is redone, replaced atomically); an input
/// that looks like an image but is not read is reported with its reason.
final class BatchRunner: Sendable {
    /// Counts for the summary line.
    struct Counts: Sendable {
        /// Outputs written (the redone ones included).
        var written = 0
        /// Outputs written again because their recipe changed.
        var redone = 0
        /// Inputs that failed.
        var failed = 0
        /// Inputs that failed because `--frame` named a frame they do not have (a usage error).
        var framesOutOfRange = 0
        /// Outputs left as they were (they existed with the same or an unknown recipe, no `--overwrite`).
        var skipped = 0
        /// Inputs that look like images but are not read (unsupported format, empty file).
        var unsupported = 0
        /// All of the above but the redone ones, counted in `written`.
        var done: Int { written + failed + skipped + unsupported }
        /// Whether something that looks like an image was not done.
        var hasUndone: Bool { failed > 0 || unsupported > 0 }

        /// `3 thumbnails, 1 failed, 2 skipped, 1 unsupported, 1 redone (options changed)` (without the
        /// parts that are 0 beyond the first two), `written` naming the outputs.
        func summary(written noun: (one: String, many: String)) -> String {
            var text = "\(written) \(written == 1 ? noun.one : noun.many), \(failed) failed"
            if skipped > 0 { text += ", \(skipped) skipped" }
            if unsupported > 0 { text += ", \(unsupported) unsupported" }
            if redone > 0 { text += ", \(redone) redone (options changed)" }
            return text
        }
    }

    /// Makes one job's output; runs on a worker thread.
    typealias Work = @Sendable (BatchJob) throws -> BatchProduct
    /// Writes one job's output itself, rows streamed, to the path given (over a file there when `replacing`,
    /// else only as a new file); `nil` when the job cannot be streamed and nothing was written.
    typealias StreamedWork = @Sendable (BatchJob, _ output: String, _ replacing: Bool) throws -> StreamedBatchOutcome?

    private struct State {
        var next = 0
        var counts = Counts()
    }

    private let jobs: [BatchJob]
    /// The order workers take `jobs` in (indices into it).
    private let order: [Int]
    private let settings: any BatchSettings
    private let context: String
    private let console: Console
    private let showsProgress: Bool
    private let work: Work
    private let streamedWork: StreamedWork?
    private let start = Date()
    private let state = Locked(State())

    /// A batch of `jobs` made by `work`; messages name the command `context`; the progress bar is drawn only
    /// when `showsProgress` (standard error is a terminal).
    init(
        jobs: [BatchJob], settings: any BatchSettings, context: String, console: Console, showsProgress: Bool,
        streamedWork: StreamedWork? = nil, work: @escaping Work
    ) {
        self.streamedWork = streamedWork
        self.jobs = jobs
        order = Self.order(of: jobs, workers: settings.jobs)
        self.settings = settings
        self.context = context
        self.console = console
        self.showsProgress = showsProgress
        self.work = work
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
        case written(BatchProduct, redone: Bool)
        case skipped
        case unsupported(String)
        case failed(BatchFailure)
    }

    private func takeJob() -> BatchJob? {
        state.withLock { state in
            guard state.next < jobs.count else { return nil }
            defer { state.next += 1 }
            return jobs[order[state.next]]
        }
    }

    /// The order to take `jobs` in: as given for one worker, else by input size, largest first (ties and
    /// unreadable sizes keep the given order).
    ///
    /// Decoding time grows with the compressed bytes, so sizes are a cheap stand-in for the work: ordering
    /// by them lets the small jobs fill in beside the large ones instead of after them.
    static func order(of jobs: [BatchJob], workers: Int) -> [Int] {
        guard workers > 1, jobs.count > 1 else { return Array(jobs.indices) }
        let sizes = jobs.map(inputSize)
        return jobs.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
    }

    /// The bytes of `job`'s input, or 0 when it is not read (planning failed, skipped) or cannot be sized.
    private static func inputSize(_ job: BatchJob) -> Int {
        guard job.output != nil, job.planningError == nil, job.skipReason == nil else { return 0 }
        if let data = job.inputData { return data.count }
        var status = stat()
        guard stat(job.input, &status) == 0 else { return 0 }
        return Int(status.st_size)
    }

    private func process(_ job: BatchJob) -> Outcome {
        if let error = job.planningError { return .failed(error) }
        if let reason = job.skipReason { return .unsupported(reason) }
        guard let output = job.output else { return .failed(BatchFailure(message: "no output name", kind: "error")) }
        let exists = FileManager.default.fileExists(atPath: output)
        // Standard input is read anew on each run, so its output is always written, as `convert - OUT` does.
        let replaces = settings.overwrites || job.input == "-"
        let redoes = exists && !replaces && job.previousRecipe != nil && job.previousRecipe != job.recipe
        if exists && !replaces && !redoes { return .skipped }
        do {
            let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
            let product: BatchProduct
            if let streamedWork, job.inputData == nil, FileManager.default.fileExists(atPath: folder),
                let outcome = try streamedWork(job, output, replaces || redoes)
            {
                guard case .written(let written) = outcome else { return .skipped }
                product = written
            } else {
                product = try work(job)
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                guard try publish(product.data, to: output, replacing: replaces || redoes) else { return .skipped }
            }
            // Only a new recipe is appended, so reruns with the same options never grow the records file.
            if let name = job.recordName, let source = job.source, job.recipe != job.previousRecipe {
                OutputSourceRecords.appendRecipe(
                    job.recipe, name: name, source: source, directory: settings.outputDirectory)
            }
            return .written(product, redone: redoes)
        } catch let failure as BatchFailure {
            return .failed(failure)
        } catch {
            return .failed(BatchFailure(error))
        }
    }

    /// Writes the output: over the file there when `replacing` (the name is this source's: see
    /// ``OutputSourceRecords``), else only if the name is still free (`false`: another process or program
    /// put a file there since planning; it is left as it is).
    private func publish(_ data: Data, to output: String, replacing: Bool) throws(OutputWriteError) -> Bool {
        if replacing {
            try AtomicFileWriter.writeOutput(data, to: output)
            return true
        }
        return try AtomicFileWriter.writeNewOutput(data, to: output)
    }

    private func report(_ job: BatchJob, outcome: Outcome) {
        let encoder = JSONLineEncoder()
        state.withLock { state in
            if showsProgress { console.errorText(ProgressBar.clear) }
            switch outcome {
            case .written(let product, let redone):
                state.counts.written += 1
                if redone { state.counts.redone += 1 }
                // As `convert` does: benign warnings (and lenient ones) on stderr, the file still written.
                for warning in product.warnings { console.warning("\(job.input): \(warning)") }
                if settings.json, let output = job.output {
                    console.printLine(
                        encoder.line(
                            for: BatchRecord.written(
                                input: job.input, output: output, width: product.width, height: product.height,
                                bytes: product.byteCount, redone: redone)))
                }
            case .skipped:
                state.counts.skipped += 1
                console.warning("\(job.input): skipped, \(job.output ?? "output") exists (use --overwrite)")
                if settings.json, let output = job.output {
                    console.printLine(encoder.line(for: BatchRecord.skipped(input: job.input, output: output)))
                }
            case .unsupported(let reason):
                state.counts.unsupported += 1
                console.error("skipped: \(reason)", context: "\(context): \(job.input)")
                if settings.json {
                    console.printLine(encoder.line(for: BatchRecord.unsupported(input: job.input, reason: reason)))
                }
            case .failed(let failure):
                state.counts.failed += 1
                if failure.kind == BatchFailure.frameOutOfRangeKind { state.counts.framesOutOfRange += 1 }
                console.error(failure.message, context: "\(context): \(job.input)")
                if settings.json {
                    console.printLine(
                        encoder.line(for: BatchRecord.failed(input: job.input, output: job.output, failure: failure)))
                }
            }
            if showsProgress {
                console.errorText(ProgressBar(total: jobs.count).line(done: state.counts.done, elapsed: elapsed))
            }
        }
    }
}
