import Dispatch
import Foundation
import Pixpipe
import PixpipeLocking

/// Runs one `pixpipe fetch`: scans the list (counting its items, reporting its bad lines), runs the
/// downloader (which records the bad lines in its manifest), reports events, and stops cleanly on SIGINT.
struct FetchRunner: Sendable {
    /// The validated options.
    let settings: FetchSettings
    /// Where output and messages go.
    let console: Console

    /// Runs the command and returns its exit status.
    func run() async -> ExitStatus {
        let spool: StandardInputSpool?
        let list: URLList
        do {
            (list, spool) = try makeList()
        } catch {
            console.error(error.description, context: "fetch")
            return .failure
        }
        defer { spool?.remove() }
        if settings.dryRun { return dryRun(list) }
        // The scan's bad lines are kept for the manifest, so the list is not read a third time for them
        // (unless there are very many).
        var invalidLines: [URLListError] = []
        let scan = FetchListScan.count(list, shard: settings.options.shard) { error in
            report(error)
            if invalidLines.count <= Self.keptInvalidLines { invalidLines.append(error) }
        }
        if let fatal = scan.fatalError {
            console.error(fatal.description, context: "fetch: \(settings.list)")
            return .failure
        }
        return await download(
            list, expected: scan.entriesInShard, invalidByKind: scan.invalidByKind,
            invalidLines: invalidLines.count <= Self.keptInvalidLines ? .kept(invalidLines) : .reread)
    }

    /// How many bad lines the scan keeps for the manifest; a list with more is read again for them.
    static let keptInvalidLines = 10_000

    private func makeList() throws(FetchRunError) -> (URLList, StandardInputSpool?) {
        if settings.listIsSingleURL {
            return (URLList(bytes: Array(settings.list.utf8), format: .lines), nil)
        }
        if settings.list == "-" {
            let spool = try StandardInputSpool()
            return (keepingColumns(URLList(source: .file(spool.path), format: settings.listFormat)), spool)
        }
        // A list that is a stream (`<(command)`, a named pipe) can be read only once: the scan would consume
        // it and the batch would then find nothing, reporting "0 items" and success. Spool it like stdin.
        if Self.isStream(settings.list), let handle = FileHandle(forReadingAtPath: settings.list) {
            defer { try? handle.close() }
            let spool = try StandardInputSpool(from: handle, name: settings.list)
            return (keepingColumns(URLList(source: .file(spool.path), format: settings.listFormat)), spool)
        }
        return (keepingColumns(URLList(source: .file(settings.list), format: settings.listFormat)), nil)
    }

    /// `list`, keeping the columns a comic book archive reads: its group and its `ComicInfo.xml` fields.
    private func keepingColumns(_ list: URLList) -> URLList {
        guard case .comicBook(_, let groupBy) = settings.options.archive else { return list }
        var list = list
        list.keptColumns = Set(["series", "number", "title"] + (groupBy.map { [$0] } ?? []))
        return list
    }

    /// Whether `path` is a stream that can be read only once (a pipe, a socket, a character device); regular
    /// files, folders and missing paths are left to the list, which reports what is wrong with them.
    private static func isStream(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFSOCK || type == S_IFCHR
    }

    private func report(_ error: URLListError) {
        console.warning("\(settings.listIsSingleURL ? "LIST" : settings.list): \(error.description)")
        if settings.json { console.printLine(JSONLineEncoder().line(for: FetchEventRecord.invalid(error))) }
    }

    private func dryRun(_ list: URLList) -> ExitStatus {
        let scan = FetchListScan.scan(list, shard: settings.options.shard) { report($0) }
        if let fatal = scan.fatalError {
            console.error(fatal.description, context: "fetch: \(settings.list)")
            return .failure
        }
        let plan = FetchPlan(scan: scan, settings: settings)
        if settings.json {
            console.printLine(JSONLineEncoder().line(for: plan))
        } else {
            console.printLine(plan.humanText, terminator: "")
        }
        return scan.invalidLines > 0 ? .failure : .success
    }

    private func download(
        _ list: URLList, expected: Int, invalidByKind: [String: Int], invalidLines: InvalidLines
    ) async -> ExitStatus {
        let start = ContinuousClock.now
        let downloader = Downloader(options: settings.options)
        let events: DownloadEvents
        switch invalidLines {
        case .kept(let lines): events = downloader.run(DownloadItemList(list: list), invalidLines: lines)
        case .reread: events = downloader.run(DownloadItemList(list: list), invalidLines: list.lineErrors)
        }
        let terminal = TerminalLine(console: console)
        let interrupt = InterruptHandler { [terminal] in
            terminal.error("interrupted: finishing files being written and the manifest (again to quit now)")
            events.cancel()
        }
        defer { interrupt.cancel() }
        var reporter = FetchEventReporter(settings: settings, terminal: terminal, expected: expected)
        var summary = DownloadSummary(stopReason: .cancelled)
        var iterator = events.makeAsyncIterator()
        // Events come in batches and the batch's lines go out in one write: one system call per batch, not
        // one per stored file, and a line still appears as soon as its item is reported.
        while let batch = await iterator.nextBatch() {
            for event in batch {
                if case .stopped(let final) = event { summary = final }
                reporter.report(event)
            }
            reporter.flushOutput()
        }
        reporter.finish()
        // Lines of the folder's manifest that were ignored (their items fetched as new): said, never quoted.
        for issue in summary.manifestIssues { console.warning("\(manifestPath): \(issue.description)") }
        let undescribed = summary.unusableManifestLines - summary.manifestIssues.count
        if undescribed > 0 { console.warning("\(manifestPath): \(undescribed) more lines ignored") }
        let outcome = FetchOutcome(
            summary: summary, invalidByKind: invalidByKind, elapsed: (ContinuousClock.now - start).secondsValue,
            refreshes: settings.options.refreshesStored, prunesGone: settings.options.prunesGone,
            decodesStrictly: settings.options.decodeOptions.strictness == .strict)
        // Through `error`, which escapes: a stop reason can name a path or hold a server's words.
        for line in outcome.humanLines { console.error(line, context: "fetch") }
        console.error("manifest: \(manifestPath)", context: "fetch")
        if settings.json { console.printLine(JSONLineEncoder().line(for: FetchEventRecord.summary(outcome))) }
        return outcome.exitStatus
    }

    /// Where the batch gets the list's bad lines from.
    private enum InvalidLines {
        /// Kept by the scan.
        case kept([URLListError])
        /// Too many to keep: read from the list again.
        case reread
    }

    private var manifestPath: String {
        settings.options.outputDirectory.appendingPathComponent(settings.options.manifestName).path
    }
}
