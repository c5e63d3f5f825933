import Foundation

/// The one-line progress display of a batch on a terminal: a bar, done/total, rate and time left.
struct ProgressBar: Sendable {
    /// Items in the batch.
    let total: Int
    /// Characters of the bar itself.
    static let barWidth = 24

    /// The line for `done` items after `elapsed` seconds, starting with a carriage return and ending by
    /// clearing the rest of the terminal line, so each draw replaces the previous one.
    func line(done: Int, elapsed: Double) -> String {
        let fraction = total == 0 ? 1 : Double(done) / Double(total)
        let filled = Int((fraction * Double(Self.barWidth)).rounded(.down))
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: Self.barWidth - filled)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = rate > 0 ? Self.duration(Double(total - done) / rate) : "--:--"
        return "\r[\(bar)] \(done)/\(total)  \(String(format: "%.1f", rate))/s  ETA \(eta)\u{1B}[K"
    }

    /// Clears the line the bar was drawn on.
    static let clear = "\r\u{1B}[K"

    /// `m:ss`, or `h:mm:ss` past an hour.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }
}
