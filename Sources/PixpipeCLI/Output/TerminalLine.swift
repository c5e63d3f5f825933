import Foundation
import PixpipeLocking

/// The one owner of the terminal's last line while a progress bar is shown on standard error.
///
/// Anything else written while the bar is up (a stored path on standard output, when that is the same
/// terminal; a log line on standard error; the interrupt notice, from the signal thread) goes through here:
/// the bar line is cleared, the text written, and the bar drawn again below it. Written text so never lands on
/// the bar's line (`... ETA 0:13out/photo.jpg`). The lock makes each clear-write-redraw one step.
final class TerminalLine: Sendable {
    /// The bar's current text and whether it is on the screen.
    private struct State {
        var text: String?
        var drawn = false
    }

    private let console: Console
    /// Whether standard output is a terminal too, so results share the screen with the bar.
    private let outputIsTerminal: Bool
    private let state = Locked(State())

    /// An owner writing through `console`; `outputIsTerminal` says whether results reach the same screen.
    init(console: Console, outputIsTerminal: Bool = isatty(STDOUT_FILENO) == 1) {
        self.console = console
        self.outputIsTerminal = outputIsTerminal
    }

    /// The sequence that returns to the line's start and erases it.
    static let eraseLine = "\r\u{1B}[K"

    /// Shows `text` (one line, made by the program) as the bar, replacing what the line showed.
    func show(_ text: String) {
        state.withLock { state in
            state.text = text
            state.drawn = true
            console.errorText(Self.eraseLine + text)
        }
    }

    /// Writes result text (whole lines) on standard output, above the bar when both share the screen.
    func printResults(_ text: String) {
        state.withLock { state in
            guard outputIsTerminal, state.drawn else { return console.printLine(text, terminator: "") }
            console.errorText(Self.eraseLine)
            console.printLine(text, terminator: "")
            if let bar = state.text { console.errorText(bar) }
        }
    }

    /// Writes a message line on standard error (``Console/error(_:context:)``), above the bar.
    func error(_ message: String, context: String? = nil) {
        state.withLock { state in
            guard state.drawn else { return console.error(message, context: context) }
            console.errorText(Self.eraseLine)
            console.error(message, context: context)
            if let bar = state.text { console.errorText(bar) }
        }
    }

    /// Erases the bar for good (until the next ``show(_:)``).
    func clear() {
        state.withLock { state in
            guard state.drawn else { return }
            state.drawn = false
            state.text = nil
            console.errorText(Self.eraseLine)
        }
    }
}
