import Pixpipe

/// A comic the run could not turn into a thumbnail, by number, with what went wrong: reported on standard
/// error, and the reason the exit status is 1.
struct ComicProblem: Sendable, CustomStringConvertible {
    /// The comic's number.
    var number: Int
    /// What went wrong, for people.
    var reason: String

    /// `comic #N: reason`.
    var description: String { "comic #\(number): \(reason)" }

    /// The problem of comic `number` whose JSON request failed with `error` (retries included): a `404` is a
    /// hole in the archive (xkcd has no comic 404), anything else a failure to read it.
    init(number: Int, jsonError error: HTTPError) {
        self.number = number
        if case .httpStatus(let code, _, _) = error, code == 404 || code == 410 {
            reason = "missing (HTTP \(code)): the archive has no such comic"
        } else {
            reason = "cannot read its JSON: \(error.shortName): \(error)"
        }
    }

    /// A problem from its parts.
    init(number: Int, reason: String) {
        self.number = number
        self.reason = reason
    }
}
