import Foundation
import PixpipeLocking

/// Where the tool writes: results to standard output, messages and errors to standard error.
///
/// Keeping the two apart lets a user pipe the results (`pixpipe info --json *.jpg | jq ...`)
/// while still seeing what went wrong on the terminal.
struct Console: Sendable {
    /// The handle results go to.
    let output: FileHandle
    /// The handle messages go to.
    let errors: FileHandle

    /// The process's own standard output and standard error.
    static let standard = Console(output: .standardOutput, errors: .standardError)

    /// Writes one line of results (or any text, with `terminator: ""`).
    func printLine(_ line: String, terminator: String = "\n") {
        output.write(Data((line + terminator).utf8))
    }

    /// Writes raw result bytes (an encoded image), reporting a failure such as a closed pipe.
    func writeOutput(_ data: Data) throws(OutputWriteError) {
        do {
            try output.write(contentsOf: data)
        } catch {
            throw .standardOutputFailed(reason: (error as NSError).localizedDescription)
        }
    }

    /// Writes `pixpipe: <context>: <message>` on standard error, as one line.
    ///
    /// Both parts often hold text from outside (a server's body, a URL, a list's or a file's name), so both
    /// are shown with their control characters escaped (``UntrustedText``): a message can neither drive the
    /// terminal nor break over several lines.
    func error(_ message: String, context: String? = nil) {
        let prefix = context.map { "pixpipe: \(UntrustedText.escaped($0)): " } ?? "pixpipe: "
        errors.write(Data((prefix + UntrustedText.escaped(message) + "\n").utf8))
    }

    /// Writes `pixpipe: warning: <message>` on standard error.
    func warning(_ message: String) {
        error(message, context: "warning")
    }

    /// Writes text the program made (help, usage, the progress bar's own escape sequences) on standard error
    /// without any prefix or escaping: never text from outside, which goes through ``error(_:context:)``.
    func errorText(_ text: String) {
        errors.write(Data(text.utf8))
    }
}
