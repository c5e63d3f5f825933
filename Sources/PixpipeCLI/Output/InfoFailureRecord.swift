import Pixpipe

/// The JSON Lines record of a file `pixpipe info` could not read.
struct InfoFailureRecord: Encodable, Sendable, Hashable {
    /// The path as given on the command line (`-` for standard input).
    let path: String
    /// The error, explained for people.
    let error: String
    /// The error's ``ImageDecodingError/shortName``, for programs: `corrupt-image`, `not-an-image`...
    let errorKind: String

    /// The record of `error` for `path`.
    init(path: String, error: ImageDecodingError) {
        self.path = path
        self.error = error.description
        errorKind = error.shortName
    }
}
