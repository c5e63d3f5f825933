import Foundation
import Pixpipe

/// Turns downloader events into output: JSON Lines or stored paths on standard output, failures on standard
/// error, and the progress bar when standard error is a terminal.
struct FetchEventReporter {
    private let settings: FetchSettings
    /// The owner of the terminal's last line: results and messages are written through it, above the bar.
    private let terminal: TerminalLine
    private let encoder = JSONLineEncoder()
    private var bar: FetchProgressBar?
    /// The output folder as the user named it, with a trailing slash: stored paths are this plus a name
    /// (building a URL per file showed in profiles of thousands of small files).
    private let folderPrefix: String
    /// The running totals: downloaded bytes only (never a stored file's size), so the count only grows.
    private var progress = DownloadProgress()
    /// Result lines not written yet: written by ``flushOutput()``, once per batch of events.
    private var pendingOutput = ""

    /// A reporter for a run expected to finish `expected` items.
    init(settings: FetchSettings, terminal: TerminalLine, expected: Int) {
        self.settings = settings
        self.terminal = terminal
        let folder = settings.options.outputDirectory.relativePath
        folderPrefix = folder.hasSuffix("/") ? folder : folder + "/"
        bar = FetchProgressBar.isTerminal ? FetchProgressBar(total: expected, terminal: terminal) : nil
    }

    /// Reports one event.
    mutating func report(_ event: DownloadEvent) {
        progress.record(event)
        switch event {
        case .started(let index, let url):
            if settings.json {
                queueLine(encoder.line(for: FetchEventRecord.started(index: index, url: url.absoluteString)))
            }
        case .progress:
            break
        case .hostPace(let change):
            if settings.json { queueLine(encoder.line(for: FetchEventRecord.hostPace(change))) }
        case .finished(let index, let record):
            finished(index: index, record: record)
        case .stopped:
            break
        }
        guard var bar else { return }
        bar.bytes = progress.bytesReceived
        bar.draw()
        self.bar = bar
    }

    /// Writes the result lines of the events reported since the last call, in one write.
    mutating func flushOutput() {
        guard !pendingOutput.isEmpty else { return }
        terminal.printResults(pendingOutput)
        pendingOutput.removeAll(keepingCapacity: true)
    }

    /// Writes what is left and clears the progress bar.
    mutating func finish() {
        flushOutput()
        bar?.clear()
    }

    private mutating func queueLine(_ line: String) {
        pendingOutput += line
        pendingOutput += "\n"
    }

    private mutating func finished(index: Int, record: ManifestRecord) {
        bar?.done += 1
        if record.status == .failed || record.status == .gone {
            if record.status == .failed { bar?.failed += 1 }
            // The record's error names the URL already, and is one line; the console escapes what came from
            // the server. Written above the bar, which is drawn again below it.
            let message = record.error ?? "\(record.url): \(record.errorKind ?? record.status.rawValue)"
            terminal.error(message, context: "fetch")
        }
        if settings.json {
            queueLine(encoder.line(for: FetchEventRecord.finished(index: index, record: record)))
        } else if record.status == .ok, let name = record.name {
            // An archived item is a member: `DIR/00000.tar/000000001.jpg`, as tar tools list it.
            queueLine(folderPrefix + (record.archive.map { "\($0)/" } ?? "") + name)
        }
    }
}
