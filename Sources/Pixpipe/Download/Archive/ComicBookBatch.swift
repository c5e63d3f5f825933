import Foundation
import PixpipeImage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a batch into comic book archives (``ArchiveLayout/comicBook(name:groupBy:)``): the whole list is
/// read first (a book needs all its pages), its pages downloaded by one ordinary batch into a hidden staging
/// folder, then each book whose pages were all stored is written as a `.cbz` (a zip of the pages in list
/// order, `001.jpg`, `002.png`..., and a `ComicInfo.xml`), whole and renamed into place, and recorded in
/// the folder's manifest.
///
/// A book the manifest names and the folder holds, with every page of the list recorded in it, is finished:
/// a rerun skips its pages. A book with a failed page is not written; its stored pages stay staged, so a
/// rerun (with ``ResumeMode/retryFailed`` to retry the failures) completes it without fetching them again.
struct ComicBookBatch: Sendable {
    let options: DownloadOptions
    let bookName: String
    let groupColumn: String?
    let events: EventChannel

    /// One book: its file name, and its pages as positions in the list.
    struct Book {
        var file: String
        var pages: [Int] = []
    }

    /// Records `invalidLines` as a plain batch does, runs `items` to the end or until stopped, sends
    /// `.stopped`, finishes the channel.
    func run<Items: Sequence & Sendable, Invalid: Sequence & Sendable>(
        _ items: Items, invalidLines: Invalid
    ) async -> DownloadSummary where Items.Element == DownloadItem, Invalid.Element == URLListError {
        defer { events.finish() }
        var summary = DownloadSummary()
        do throws(DownloadError) {
            try createFolder()
            try ArchiveManifest.record(lineErrors: invalidLines, at: manifestPath, share: nil)
            try await runBooks(Array(items), summary: &summary)
        } catch {
            if summary.stopReason == nil { summary.stopReason = .diskError(error.description) }
        }
        if summary.stopReason == nil, Task.isCancelled { summary.stopReason = .cancelled }
        await events.send(.stopped(summary))
        return summary
    }

    private var directory: URL { options.outputDirectory }
    private var manifestPath: String { directory.appendingPathComponent(options.manifestName).path }

    /// The books of `items`, in the order their first pages come, each page once (a repeated URL is left out).
    func books(of items: [DownloadItem]) -> (books: [Book], duplicates: [Int]) {
        var books: [Book] = []
        var bookOfGroup: [String: Int] = [:]
        var seen = Set<String>()
        var duplicates: [Int] = []
        for (index, item) in items.enumerated() {
            guard seen.insert(item.url.absoluteString).inserted else {
                duplicates.append(index)
                continue
            }
            let group = groupColumn.map { item.columns[$0.lowercased()] ?? "" } ?? ""
            if let book = bookOfGroup[group] {
                books[book].pages.append(index)
            } else {
                bookOfGroup[group] = books.count
                let stem =
                    groupColumn == nil ? bookName : FileNameSanitizer.sanitize(group.isEmpty ? "ungrouped" : group)
                books.append(Book(file: "\(stem).cbz", pages: [index]))
            }
        }
        return (books, duplicates)
    }

    private func createFolder() throws(DownloadError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .write(path: directory.path, operation: "create the folder", code: EIO)
        }
    }

    private func runBooks(_ items: [DownloadItem], summary: inout DownloadSummary) async throws(DownloadError) {
        let (books, duplicates) = books(of: items)
        for index in duplicates {
            let record = ManifestRecord(
                url: items[index].url.absoluteString, status: .skipped,
                error: "same URL as an earlier item of the list",
                errorKind: SkipReason.duplicate.shortName)
            summary.add(record)
            await events.send(.finished(index: index, record: record))
        }
        let recorded = recordedBooks()
        var pending: [Book] = []
        for book in books {
            let urls = Set(book.pages.map { items[$0].url.absoluteString })
            let exists = FileManager.default.fileExists(atPath: directory.appendingPathComponent(book.file).path)
            guard exists, let done = recorded[book.file], urls.isSubset(of: done) else {
                pending.append(book)
                continue
            }
            for index in book.pages {
                let record = ManifestRecord(
                    url: items[index].url.absoluteString, status: .skipped, error: "in the finished book \(book.file)",
                    errorKind: SkipReason.alreadyDone.shortName, archive: book.file)
                summary.add(record)
                await events.send(.finished(index: index, record: record))
            }
        }
        guard !pending.isEmpty else { return }
        let staged = StagedBatch(options: options, name: "cbz", events: events)
        // The inner list holds the pending books' pages; `positions` maps its indices back to the list's.
        let positions = pending.flatMap(\.pages).sorted()
        let innerItems = positions.map { index in
            DownloadItem(
                url: items[index].url, name: ArchiveLayout.webDatasetKey(index: index), line: items[index].line)
        }
        var records: [Int: ManifestRecord] = [:]
        // A comic reader would show a kept original as a page of its own: books hold the stored images only.
        let inner = try await staged.run(innerItems, keepsOriginal: false, index: { positions[$0] }) {
            (index: Int, record: ManifestRecord) async throws(DownloadError) in records[index] = record
        }
        if let stopped = staged.merge(inner, into: &summary) {
            summary.stopReason = stopped
            return
        }
        var written: [(index: Int, record: ManifestRecord)] = []
        var unfinished = false
        var held: [ManifestRecord] = []
        for book in pending {
            // A page the staged run skips (stored by an earlier run) is there all the same.
            let complete = book.pages.allSatisfy { index in
                guard let record = records[index] else { return false }
                return record.status == .ok
                    || (record.status == .skipped && record.errorKind == SkipReason.alreadyDone.shortName)
            }
            guard complete else {
                unfinished = true
                for index in book.pages {
                    guard var record = records[index] else { continue }
                    if record.status == .failed {
                        // The manifest keeps the failure; the staged pages wait for the book.
                        held.append(record)
                    } else {
                        record.name = nil
                    }
                    summary.add(record)
                    await events.send(.finished(index: index, record: record))
                }
                continue
            }
            written += try write(book, items: items, records: records, staged: staged)
        }
        try ArchiveManifest.append(to: manifestPath, held + written.map(\.record))
        if !unfinished { staged.remove() }
        for (index, record) in written {
            summary.add(record)
            await events.send(.finished(index: index, record: record))
        }
    }

    /// Writes `book` from the staged pages; returns its pages' records as the manifest keeps them.
    private func write(
        _ book: Book, items: [DownloadItem], records: [Int: ManifestRecord], staged: StagedBatch
    ) throws(DownloadError) -> [(index: Int, record: ManifestRecord)] {
        let writer = try ArchiveFileWriter(path: directory.appendingPathComponent(book.file).path, format: .zipStored)
        let now = Int(Date().timeIntervalSince1970)
        var pages: [(index: Int, record: ManifestRecord)] = []
        // The staged files by key: a page an earlier run of the staged batch stored has a skip record, no name.
        let stagedByKey = staged.stagedNamesByKey().compactMapValues { $0.min() }
        for (number, index) in book.pages.enumerated() {
            guard var record = records[index] else { continue }
            let key = ArchiveLayout.webDatasetKey(index: index)
            let stored = (record.status == .ok ? record.name : nil) ?? stagedByKey[key] ?? key
            let path = staged.staging.appendingPathComponent(stored).path
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw .write(path: path, operation: "read", code: ENOENT)
            }
            let member = ComicBook.pageName(
                number, of: book.pages.count, fileExtension: (stored as NSString).pathExtension)
            try writer.add(name: member, bytes: bytes, modified: now)
            if record.status == .skipped {
                // Stored by an earlier run: recorded as that run stored it.
                record = ManifestRecord(
                    url: record.url, status: .ok, bytes: bytes.count, sha256: SHA256.hash(bytes).hexString)
            }
            record.name = member
            record.archive = book.file
            pages.append((index, record))
        }
        let first = book.pages.first.map { items[$0].columns } ?? [:]
        let info = ComicInfo(
            series: first["series"], number: first["number"], title: first["title"], pageCount: pages.count)
        try writer.add(name: "ComicInfo.xml", bytes: Data(info.xml.utf8), modified: now)
        try writer.finish()
        return pages
    }

    /// The books the manifest records, with the URLs recorded in each.
    private func recordedBooks() -> [String: Set<String>] {
        var books: [String: Set<String>] = [:]
        for record in ArchiveManifest.archivedRecords(at: manifestPath) where record.status == .ok {
            books[record.archive ?? "", default: []].insert(record.url)
        }
        return books
    }
}
