/// The JSON Lines record of one input of `pixpipe thumbnail --json` or batch `pixpipe convert --json`.
struct BatchRecord: Encodable, Sendable, Hashable {
    /// The input path (`-` for standard input).
    let input: String
    /// The output path (absent when planning failed or the input is not read).
    var output: String?
    /// The output's width, when written.
    var width: Int?
    /// The output's height, when written.
    var height: Int?
    /// The bytes written.
    var bytes: Int?
    /// `true` when the output was written again because the options that make it changed.
    var redone: Bool?
    /// `true` when the input was not done: its output existed (no `--overwrite`), or it is not read.
    var skipped: Bool?
    /// Why an input that looks like an image is not read (`HEIF image: not supported`, `empty file`).
    var reason: String?
    /// Why the input failed, for people.
    var error: String?
    /// Why the input failed, for programs: the error's short name (`not-an-image`, `input-too-large`...).
    var errorKind: String?

    /// The record of an output written (`redone` when its recipe had changed).
    static func written(input: String, output: String, width: Int, height: Int, bytes: Int, redone: Bool)
        -> BatchRecord
    {
        BatchRecord(
            input: input, output: output, width: width, height: height, bytes: bytes, redone: redone ? true : nil)
    }

    /// The record of an output left as it was.
    static func skipped(input: String, output: String) -> BatchRecord {
        BatchRecord(input: input, output: output, skipped: true)
    }

    /// The record of an input that looks like an image but is not read.
    static func unsupported(input: String, reason: String) -> BatchRecord {
        BatchRecord(input: input, skipped: true, reason: reason)
    }

    /// The record of a failure.
    static func failed(input: String, output: String?, failure: BatchFailure) -> BatchRecord {
        BatchRecord(input: input, output: output, error: failure.message, errorKind: failure.kind)
    }
}
