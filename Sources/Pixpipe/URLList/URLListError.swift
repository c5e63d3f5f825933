/// Why one line of a URL list, or the whole list, could not be read.
///
/// Line errors (``line`` is not `nil`) concern that line only: the list goes on. ``missingURLColumn(header:line:)``
/// and ``unreadable(reason:)`` end the list.
public enum URLListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not an absolute URL with a host.
    case invalidURL(text: String, line: Int)
    /// The URL's scheme is not http or https.
    case unsupportedScheme(scheme: String, text: String, line: Int)
    /// A CSV or TSV row or a JSON object without a (non-empty) url.
    case missingURL(line: Int)
    /// The CSV or TSV header has no `url` column; nothing after it can be read.
    case missingURLColumn(header: [String], line: Int)
    /// A CSV or TSV row with a quote that is never closed before the end of the list or the record limit.
    case unterminatedQuote(line: Int)
    /// A JSON Lines line that is not a JSON object with string values for `url` and `name`.
    case malformedJSON(reason: String, line: Int)
    /// A line longer than the limit; it is skipped without being held in memory.
    case lineTooLong(limit: Int, line: Int)
    /// A line that is not valid UTF-8.
    case invalidUTF8(line: Int)
    /// Reading the list failed (an I/O error); the list ends here.
    case unreadable(reason: String)
    /// A gzip-compressed list decompressed to more than `limit` bytes (``URLList/maximumDecompressedBytes``),
    /// or to more than 1,000 times its compressed size past 1 MiB: a gzip bomb. The list ends here.
    case decompressedTooLarge(limit: Int)

    /// The 1-based line the error concerns, or `nil` when it concerns the whole list.
    public var line: Int? {
        switch self {
        case .invalidURL(_, let line), .unsupportedScheme(_, _, let line), .missingURL(let line),
            .missingURLColumn(_, let line), .unterminatedQuote(let line), .malformedJSON(_, let line),
            .lineTooLong(_, let line), .invalidUTF8(let line):
            line
        case .unreadable, .decompressedTooLarge: nil
        }
    }

    /// Whether the list cannot go on after this error.
    public var endsList: Bool {
        switch self {
        case .missingURLColumn, .unreadable, .decompressedTooLarge: true
        default: false
        }
    }

    /// The stable short names of the cases, as recorded in a manifest's `errorKind`.
    public enum ShortName: String, Sendable, Hashable, CaseIterable {
        /// ``URLListError/invalidURL(text:line:)``.
        case invalidURL = "invalid-url"
        /// ``URLListError/unsupportedScheme(scheme:text:line:)``.
        case unsupportedScheme = "unsupported-scheme"
        /// ``URLListError/missingURL(line:)``.
        case missingURL = "missing-url"
        /// ``URLListError/missingURLColumn(header:line:)``.
        case missingURLColumn = "missing-url-column"
        /// ``URLListError/unterminatedQuote(line:)``.
        case unterminatedQuote = "unterminated-quote"
        /// ``URLListError/malformedJSON(reason:line:)``.
        case malformedJSON = "malformed-json"
        /// ``URLListError/lineTooLong(limit:line:)``.
        case lineTooLong = "line-too-long"
        /// ``URLListError/invalidUTF8(line:)``.
        case invalidUTF8 = "invalid-utf8"
        /// ``URLListError/unreadable(reason:)``.
        case unreadable = "unreadable-list"
        /// ``URLListError/decompressedTooLarge(limit:)``.
        case decompressedTooLarge = "list-too-large"
    }

    /// A stable short name of the case (see ``ShortName``), recorded in a manifest's `errorKind`.
    public var shortName: String {
        let name: ShortName =
            switch self {
            case .invalidURL: .invalidURL
            case .unsupportedScheme: .unsupportedScheme
            case .missingURL: .missingURL
            case .missingURLColumn: .missingURLColumn
            case .unterminatedQuote: .unterminatedQuote
            case .malformedJSON: .malformedJSON
            case .lineTooLong: .lineTooLong
            case .invalidUTF8: .invalidUTF8
            case .unreadable: .unreadable
            case .decompressedTooLarge: .decompressedTooLarge
            }
        return name.rawValue
    }

    /// The offending text as a manifest records it in place of a URL (the text, or `line N`).
    public var offendingText: String {
        switch self {
        case .invalidURL(let text, _), .unsupportedScheme(_, let text, _): text
        case .unreadable, .decompressedTooLarge: "list"
        default: "line \(line ?? 0)"
        }
    }

    /// A one-line explanation with the line number.
    public var description: String {
        let prefix = line.map { "line \($0): " } ?? ""
        return prefix + reason
    }

    private var reason: String {
        switch self {
        case .invalidURL(let text, _):
            "'\(Self.excerpt(text))' is not an absolute http or https URL"
        case .unsupportedScheme(let scheme, let text, _):
            "unsupported scheme '\(scheme)' in '\(Self.excerpt(text))' (only http and https)"
        case .missingURL: "no url on this row"
        case .missingURLColumn(let header, _):
            "the header has no 'url' column (columns: \(header.map { "'\(Self.excerpt($0))'" }.joined(separator: ", ")))"
        case .unterminatedQuote: "a quoted field is never closed"
        case .malformedJSON(let reason, _): "not a JSON object with string 'url' and 'name': \(reason)"
        case .lineTooLong(let limit, _): "longer than \(limit) bytes"
        case .invalidUTF8: "not valid UTF-8"
        case .unreadable(let reason): "cannot read the list: \(reason)"
        case .decompressedTooLarge(let limit):
            "the gzip list decompresses to more than \(limit) bytes, or 1000 times its size: refused as a gzip bomb"
        }
    }

    /// `text` cut to a length that keeps messages on one screen line.
    private static func excerpt(_ text: String) -> String {
        text.count <= 200 ? text : String(text.prefix(200)) + "..."
    }
}
