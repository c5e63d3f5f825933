import Foundation

/// One usable line of a URL list: an http or https URL, the name the list gives it, and where it was.
public struct URLListEntry: Sendable, Hashable {
    /// The absolute http or https URL.
    public var url: URL
    /// The `name` column or key, when the list has one and it is not empty.
    public var name: String?
    /// The 1-based line the entry starts on.
    public var line: Int

    /// An entry for `url` found on `line`.
    public init(url: URL, name: String? = nil, line: Int) {
        self.url = url
        self.name = name
        self.line = line
    }
}
