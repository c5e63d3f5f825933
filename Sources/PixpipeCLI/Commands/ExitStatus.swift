/// The process exit status, as documented in `pixpipe --help`.
enum ExitStatus: Int32, Sendable {
    /// Everything succeeded.
    case success = 0
    /// At least one input could not be processed; the others were.
    case failure = 1
    /// The command line was wrong; nothing was done.
    case usage = 2
}
