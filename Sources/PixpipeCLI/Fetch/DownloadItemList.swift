import Pixpipe

/// The usable entries of a URL list as download items, read lazily; lines in error are left out (they are
/// reported by ``FetchListScan`` before the batch starts).
struct DownloadItemList: Sequence, Sendable {
    /// The list.
    let list: URLList

    /// Starts reading the list.
    func makeIterator() -> Iterator {
        Iterator(entries: list.makeIterator())
    }

    /// Skips errors and converts entries.
    struct Iterator: IteratorProtocol {
        var entries: URLList.Iterator

        /// The next usable entry as an item.
        mutating func next() -> DownloadItem? {
            while let element = entries.next() {
                if case .success(let entry) = element {
                    return DownloadItem(url: entry.url, name: entry.name, line: entry.line, columns: entry.columns)
                }
            }
            return nil
        }
    }
}
