/// The process exit status, as documented in `pixpipe --help`.
enum ExitStatus: Int32, Sendable {
    /// Everything succeeded.
    case success = 0
    /// At least one input could not be processed; the others were.
    case failure = 1
    /// The command line was wrong; nothing was done.
    case usage = 2
    /// Stopped by SIGINT after a clean stop (`pixpipe fetch`), as shells report a death by that signal (128 + 2).
    case interrupted = 130
}
