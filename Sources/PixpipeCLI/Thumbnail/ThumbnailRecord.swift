/// The JSON Lines record of one input of `pixpipe thumbnail --json`.
struct ThumbnailRecord: Encodable, Sendable, Hashable {
    /// The input path.
    let input: String
    /// The output path (absent when planning failed).
    let output: String?
    /// The thumbnail's width, when written.
    let width: Int?
    /// The thumbnail's height, when written.
    let height: Int?
    /// The bytes written.
    let bytes: Int?
    /// `true` when the output existed and `--overwrite` was not given.
    let skipped: Bool?
    /// Why the input failed, for people.
    let error: String?
    /// Why the input failed, for programs: the error's short name (`not-an-image`, `input-too-large`...).
    let errorKind: String?

    /// The record of a thumbnail written.
    static func written(input: String, output: String, width: Int, height: Int, bytes: Int) -> ThumbnailRecord {
        ThumbnailRecord(
            input: input, output: output, width: width, height: height, bytes: bytes, skipped: nil, error: nil,
            errorKind: nil)
    }

    /// The record of an output left as it was.
    static func skipped(input: String, output: String) -> ThumbnailRecord {
        ThumbnailRecord(
            input: input, output: output, width: nil, height: nil, bytes: nil, skipped: true, error: nil, errorKind: nil
        )
    }

    /// The record of a failure.
    static func failed(input: String, output: String?, failure: ThumbnailFailure) -> ThumbnailRecord {
        ThumbnailRecord(
            input: input, output: output, width: nil, height: nil, bytes: nil, skipped: nil, error: failure.message,
            errorKind: failure.kind)
    }
}
