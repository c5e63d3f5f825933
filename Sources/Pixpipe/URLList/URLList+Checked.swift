extension URLList {
    /// A usable entry of a list as a pass that only counts entries needs it: its URL as text, with no `URL`.
    public struct CheckedEntry: Sendable, Hashable {
        /// The URL's `absoluteString`: what `URL(string:)` would make of the line's text.
        public var absoluteString: Substring
        /// The 1-based line the entry starts on.
        public var line: Int
    }

    /// The list's entries and line errors, read lazily, exactly as iterating the list reads them but with each
    /// entry checked instead of built: a plain http or https URL (``PlainHTTPURL``) is judged by its bytes,
    /// without `URL(string:)` (about 400 ns a line), and any other goes through the same check as before.
    public var checkedEntries: CheckedEntries { CheckedEntries(list: self) }

    /// The checked entries and line errors of a list, read lazily.
    public struct CheckedEntries: Sequence, Sendable {
        /// The list.
        let list: URLList

        /// Starts reading the list.
        public func makeIterator() -> Iterator {
            Iterator(elements: list.makeIterator())
        }

        /// Reads checked entries one line at a time.
        public struct Iterator: IteratorProtocol {
            var elements: URLList.Iterator

            /// The next checked entry or line error, or `nil` at the end of the list.
            public mutating func next() -> Result<CheckedEntry, URLListError>? {
                elements.nextChecked()
            }
        }
    }
}
