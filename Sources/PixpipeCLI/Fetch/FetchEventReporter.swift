import Foundation
import Pixpipe

/// Turns downloader events into output: JSON Lines or stored paths on standard output, failures on standard
/// error, and the progress bar when standard error is a terminal.
struct FetchEventReporter {
    private let settings: FetchSettings
    private let console: Console
    private let encoder = JSONLineEncoder()
    private var bar: FetchProgressBar?
    /// The output folder as the user named it, with a trailing slash: stored paths are this plus a name
    /// (building a URL per file showed in profiles of thousands of small files).
    private let folderPrefix: String
    /// Bytes received by items still in flight, by index; finished items move to `finishedBytes`.
    private var inFlight: [Int: Int] = [:]
    private var finishedBytes = 0
    /// Result lines not written yet: written by ``flushOutput()``, once per batch of events.
    private var pendingOutput = ""

    /// A reporter for a run expected to finish `expected` items.
    init(settings: FetchSettings, console: Console, expected: Int) {
        self.settings = settings
        self.console = console
        let folder = settings.options.outputDirectory.relativePath
        folderPrefix = folder.hasSuffix("/") ? folder : folder + "/"
        bar = FetchProgressBar.isTerminal ? FetchProgressBar(total: expected, console: console) : nil
    }

    /// Reports one event.
    mutating func report(_ event: DownloadEvent) {
        switch event {
        case .started(let index, let url):
            inFlight[index] = 0
            if settings.json {
                queueLine(encoder.line(for: FetchEventRecord.started(index: index, url: url.absoluteString)))
            }
        case .progress(let index, let received, _):
            if inFlight[index] != nil { inFlight[index] = received }
        case .finished(let index, let record):
            inFlight[index] = nil
            finishedBytes += record.status == .ok ? record.bytes ?? 0 : 0
            finished(index: index, record: record)
        case .stopped:
            break
        }
        guard var bar else { return }
        bar.bytes = finishedBytes + inFlight.values.reduce(0, +)
        bar.draw()
        self.bar = bar
    }

    /// Writes the result lines of the events reported since the last call, in one write.
    mutating func flushOutput() {
        guard !pendingOutput.isEmpty else { return }
        console.printLine(pendingOutput, terminator: "")
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
            bar?.clear()
            // The record's error names the URL already, and is one line; the console escapes what came from
            // the server.
            let message = record.error ?? "\(record.url): \(record.errorKind ?? record.status.rawValue)"
            console.error(message, context: "fetch")
        }
        if settings.json {
            queueLine(encoder.line(for: FetchEventRecord.finished(index: index, record: record)))
        } else if record.status == .ok, let name = record.name {
            queueLine(folderPrefix + name)
        }
    }
}
