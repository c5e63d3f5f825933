import Foundation

/// One usable line of a URL list: an http or https URL, the name the list gives it, and where it was.
public struct URLListEntry: Sendable, Hashable {
    /// The absolute http or https URL.
    public var url: URL
    /// The `name` column or key, when the list has one and it is not empty.
    public var name: String?
    /// The 1-based line the entry starts on.
    public var line: Int
    /// The values of the list's other columns (CSV/TSV) or keys (JSON Lines) that the list was asked to keep
    /// (``URLList/keptColumns``), by lowercased name; empty values left out.
    public var columns: [String: String] = [:]

    /// An entry for `url` found on `line`.
    public init(url: URL, name: String? = nil, line: Int, columns: [String: String] = [:]) {
        self.url = url
        self.name = name
        self.line = line
        self.columns = columns
    }
}
