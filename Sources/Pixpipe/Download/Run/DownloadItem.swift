import Foundation

/// One thing to download: a URL and, optionally, the name to store it under.
///
/// ```swift
/// let items = [DownloadItem(url: URL(string: "https://example.com/cat.jpg")!, name: "kitty")]
/// ```
public struct DownloadItem: Sendable, Hashable {
    /// What to fetch (http or https).
    public var url: URL
    /// The file name stem to use; it wins over the URL's last path component (the extension is still fixed
    /// from the sniffed bytes, and the name is sanitized like any other).
    public var name: String?
    /// The 1-based line of the list the item came from, for messages.
    public var line: Int?
    /// Values of the list's columns that archives use (``URLListEntry/columns``): the group of
    /// ``ArchiveLayout/comicBook(name:groupBy:)`` and its `series`, `number` and `title`.
    public var columns: [String: String] = [:]

    /// An item.
    public init(url: URL, name: String? = nil, line: Int? = nil, columns: [String: String] = [:]) {
        self.url = url
        self.name = name
        self.line = line
        self.columns = columns
    }
}
