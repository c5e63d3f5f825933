import Foundation

/// A comic book archive (`.cbz`) made from pages in memory: a zip of the pages, named by their place
/// (`001.jpg`, `002.png`...), and a `ComicInfo.xml` with the series, number, title and page count, written
/// whole (a temporary file renamed into place) through libarchive. ``Downloader`` writes its books itself
/// (``ArchiveLayout/comicBook(name:groupBy:)``); this is for pages a program has already.
///
/// ```swift
/// var book = ComicBook(series: "xkcd", title: "The first ten")
/// book.pages = thumbnails.map { ComicBook.Page(bytes: $0, fileExtension: "jpg") }
/// try book.write(to: URL(fileURLWithPath: "comics/xkcd.cbz"))
/// ```
public struct ComicBook: Sendable, Hashable {
    /// One page: its encoded image and the extension of its format.
    public struct Page: Sendable, Hashable {
        /// The encoded image, stored as it is.
        public var bytes: Data
        /// The extension of the image's format, without the dot (`jpg`, `png`).
        public var fileExtension: String

        /// A page.
        public init(bytes: Data, fileExtension: String) {
            self.bytes = bytes
            self.fileExtension = fileExtension
        }
    }

    /// `ComicInfo.xml`'s `Series`, left out when `nil`.
    public var series: String?
    /// `ComicInfo.xml`'s `Number` (of the issue or chapter), left out when `nil`.
    public var number: String?
    /// `ComicInfo.xml`'s `Title`, left out when `nil`.
    public var title: String?
    /// The pages, in reading order.
    public var pages: [Page] = []

    /// A book without pages yet.
    public init(series: String? = nil, number: String? = nil, title: String? = nil, pages: [Page] = []) {
        self.series = series
        self.number = number
        self.title = title
        self.pages = pages
    }

    /// Writes the book to `url`, replacing any file there; throws ``DownloadError/write(path:operation:code:)``.
    public func write(to url: URL) throws(DownloadError) {
        let writer = try ArchiveFileWriter(path: url.path, format: .zipStored)
        let now = Int(Date().timeIntervalSince1970)
        for (index, page) in pages.enumerated() {
            let name = Self.pageName(index, of: pages.count, fileExtension: page.fileExtension)
            try writer.add(name: name, bytes: page.bytes, modified: now)
        }
        let info = ComicInfo(series: series, number: number, title: title, pageCount: pages.count)
        try writer.add(name: "ComicInfo.xml", bytes: Data(info.xml.utf8), modified: now)
        try writer.finish()
    }

    /// The member name of page `index` (from 0) of `count`: its 1-based place, zero-padded to at least three
    /// digits (so readers that sort by name keep the order), and the extension.
    static func pageName(_ index: Int, of count: Int, fileExtension: String) -> String {
        let digits = max(3, String(count).count)
        let numeral = String(index + 1)
        let padded = String(repeating: "0", count: max(0, digits - numeral.count)) + numeral
        return fileExtension.isEmpty ? padded : "\(padded).\(fileExtension)"
    }
}
