/// How a ``Downloader`` packs what it stores into archives instead of loose files (``DownloadOptions/archive``).
///
/// ```swift
/// var options = DownloadOptions(outputDirectory: URL(fileURLWithPath: "dataset"))
/// options.archive = .webDataset(shardSize: 1000)   // 00000.tar, 00001.tar, ...
/// ```
public enum ArchiveLayout: Sendable, Hashable {
    /// WebDataset tar shards of `shardSize` items each, in list order: `00000.tar`, `00001.tar`... (with a
    /// ``DownloadOptions/shard`` `I/N`, `I-of-N-00000.tar`...). Each holds, per stored item, `KEY.EXT` (the
    /// stored image: as received, or its thumbnail or conversion) and `KEY.json` (its manifest record), where
    /// `KEY` is the item's 1-based position in the list, nine digits; with ``DownloadOptions/keepsOriginal``,
    /// also `KEY.original.EXT` (the image as received, in the same sample). A shard is written whole under a
    /// temporary name and renamed, once all its items are settled; the next shard's items download meanwhile.
    /// The manifest records which shard holds each item (``ManifestRecord/archive``, with
    /// ``ManifestRecord/name`` the member's name), and a rerun skips the items of every shard the manifest
    /// names and the folder holds, and redoes the others. A shard none of whose items was stored has no tar;
    /// the manifest's records of it make it finished all the same, and the numbering of the others is kept.
    case webDataset(shardSize: Int)
    /// Comic book archives (`.cbz`: a zip of the pages and a `ComicInfo.xml`): one book `NAME.cbz` for the
    /// whole list, or with `groupBy` one per value of that list column (``DownloadItem/columns``), named by the
    /// value (`Chapter 1.cbz`). Pages keep list order and are named by their place in the book, zero-padded
    /// (`001.jpg`, `002.png`...); `ComicInfo.xml` holds the `series`, `number` and `title` columns of the
    /// book's first page where the list has them, and the page count. A book is written only when every page
    /// was stored, whole and renamed into place. The whole list is read before the first request, and
    /// ``DownloadOptions/shard`` does not apply (a book is made by one process), nor does
    /// ``DownloadOptions/keepsOriginal`` (a reader would show each original as a page of its own).
    ///
    /// ```swift
    /// options.archive = .comicBook(name: "comic", groupBy: "chapter")
    /// ```
    case comicBook(name: String, groupBy: String?)

    /// The file name of this process's shard number `number` (from 0) under `share`.
    static func webDatasetShardName(_ number: Int, share: Shard?) -> String {
        let digits = String(number)
        let padded = String(repeating: "0", count: max(0, 5 - digits.count)) + digits
        guard let share, share.count > 1 else { return "\(padded).tar" }
        return "\(share.index)-of-\(share.count)-\(padded).tar"
    }

    /// The WebDataset key of the item at 0-based `index` of the list: its 1-based position, nine digits, with
    /// no dot (WebDataset splits a member's name at the first dot into key and extension).
    static func webDatasetKey(index: Int) -> String {
        let digits = String(index + 1)
        return String(repeating: "0", count: max(0, 9 - digits.count)) + digits
    }
}
