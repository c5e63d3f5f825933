extension URLList {
    /// The list's line errors (not those that end the list), read lazily: what a downloader records in its
    /// manifest as failed lines (see ``Downloader/run(_:invalidLines:)``).
    public var lineErrors: LineErrors { LineErrors(list: self) }

    /// The line errors of a list, read lazily.
    public struct LineErrors: Sequence, Sendable {
        /// The list.
        let list: URLList

        /// Starts reading the list.
        public func makeIterator() -> Iterator {
            Iterator(elements: list.makeIterator())
        }

        /// Skips entries and errors that end the list.
        public struct Iterator: IteratorProtocol {
            var elements: URLList.Iterator

            /// The next line error.
            public mutating func next() -> URLListError? {
                while let element = elements.next() {
                    if case .failure(let error) = element, !error.endsList { return error }
                }
                return nil
            }
        }
    }
}
