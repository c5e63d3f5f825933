import Foundation
import PixpipeLocking

/// The one-line progress display of `pixpipe fetch` on a terminal's standard error:
/// `[=====>      ] 120/1000, 3 failed, 12.3 MB, 1.2 MB/s, ETA 0:42`.
///
/// It redraws at most ten times a second, through the ``TerminalLine`` that owns the line, so stored paths and
/// logs are written above it, never on it. The byte figure is the bytes downloaded (bodies received, every
/// attempt's), never the sizes of stored files, so it only grows; the rate is that figure over the time run.
struct FetchProgressBar {
    /// Items expected in this run (the shard's share), or `nil` when unknown.
    let total: Int?
    private let terminal: TerminalLine
    private let start = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?

    /// Items done (stored, failed or skipped).
    var done = 0
    /// Items failed.
    var failed = 0
    /// Bytes downloaded so far, by finished items and items in flight.
    var bytes = 0

    /// A bar for `total` items drawn on `terminal`'s last line.
    init(total: Int?, terminal: TerminalLine) {
        self.total = total
        self.terminal = terminal
    }

    /// Whether standard error is a terminal, the only place a bar belongs.
    static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Redraws if the last drawing is older than a tenth of a second (or `force`).
    mutating func draw(force: Bool = false) {
        let now = ContinuousClock.now
        if !force, let lastDraw, now - lastDraw < .milliseconds(100) { return }
        lastDraw = now
        terminal.show(line(now: now))
    }

    /// Erases the bar so the next text starts on a clean line.
    mutating func clear() {
        lastDraw = nil
        terminal.clear()
    }

    /// The bar's text at `now`.
    func line(now: ContinuousClock.Instant) -> String {
        let seconds = max(0.001, (now - start).secondsValue)
        let rate = Double(bytes) / seconds
        var text = ""
        if let total, total > 0 {
            let width = 24
            let filled = min(width, done * width / total)
            text +=
                "[" + String(repeating: "=", count: filled) + (filled < width ? ">" : "")
                + String(repeating: " ", count: max(0, width - filled - 1)) + "] \(done)/\(total)"
        } else {
            text += "\(done) done"
        }
        text += ", \(failed) failed, \(ByteCountText.format(bytes)), \(ByteCountText.format(Int(rate)))/s"
        if let total, done > 0, done < total {
            let remaining = seconds / Double(done) * Double(total - done)
            text += ", ETA " + Self.clock(remaining)
        }
        return text
    }

    private static func clock(_ seconds: Double) -> String {
        let whole = Int(min(seconds, 359_999).rounded())
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }
}
