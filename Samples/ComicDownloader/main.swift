// comic-downloader: the seed use case of Pixpipe, written as a reader would. It reads a comic site's JSON
// API shaped like xkcd's with `Request<Comic>`, then stores a 200-pixel thumbnail of every comic's image,
// loaded through an `ImagePipeline` whose disk cache (OUT_DIR/.cache, or --cache DIR) makes a second run
// cost only revalidations: a fresh image no request, a stale one a conditional request answered 304.
// The JSON is read again every run (it is small, and how new comics are found); a copy of each is kept in
// the same cache. When the site cannot be reached (refused, timed out), a stale image and a comic's JSON
// are taken from the cache unless sent with must-revalidate or no-cache, and the run says how many.
// Archives have holes and servers bad moments: a missing comic (404) or one whose JSON or image fails for
// good is reported by number on standard error and the run goes on; a `503` with `Retry-After` is waited
// out. Exit status 1 when any comic is missing, 0 when every comic up to the latest is a thumbnail.
//
//   comic-downloader [--cache DIR] [--cache-size MB] [--cbz] BASE_URL OUT_DIR   e.g. ... http://127.0.0.1:8000 comics
//   comic-downloader --make-site DIR      writes a small generated comic site into DIR
import Foundation
import Pixpipe

/// Prints `message` on standard error.
func report(_ message: String) {
    FileHandle.standardError.write(Data("comic-downloader: \(message)\n".utf8))
}

/// Prints `message` on standard error and exits with `status`.
func fail(_ message: String, status: Int32 = 1) -> Never {
    report(message)
    exit(status)
}

/// The disk cache in `folder` (made with its parents), or `nil` after saying why on standard error: a cache
/// saves requests, and without one every image is downloaded and the thumbnails are the same.
func openCache(in folder: URL, sizeLimit: Int) -> DataCache? {
    do {
        try FileManager.default.createDirectory(
            at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        return try DataCache(directory: folder, sizeLimit: sizeLimit)
    } catch {
        let reason = (error as? DataCacheError)?.description ?? error.localizedDescription
        report("cannot open the cache in \(folder.path) (\(reason)); loading without it")
        return nil
    }
}

let base: URL
let folder: URL
let cacheFolder: URL
let cacheSizeLimit: Int
let writesBook: Bool
switch ComicArguments.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(.help):
    print(ComicArguments.usage)
    exit(0)
case .success(.makeSite(let directory)):
    do {
        try SiteMaker.make(in: directory)
        print("site written to \(directory.path)")
        exit(0)
    } catch {
        fail("cannot write the site: \(error)")
    }
case .success(.download(let site, let output, let cache, let limit, let cbz)):
    (base, folder, cacheFolder, cacheSizeLimit, writesBook) = (site, output, cache, limit, cbz)
case .failure(let error):
    fail("\(error)\n\(ComicArguments.usage)", status: 2)
}

let client = ComicCatalog.client(for: base)
let cache = openCache(in: cacheFolder, sizeLimit: cacheSizeLimit)
let catalog: ComicCatalog
do throws(HTTPError) {
    catalog = try await ComicCatalog.read(with: ComicJSONReader(client: client, base: base, cache: cache))
} catch {
    fail("cannot read the latest comic: \(error)")
}
if catalog.siteIsDown {
    report("the site cannot be reached: \(catalog.fromCopies) comics' JSON from the cache")
}
print("latest comic: #\(catalog.latest.num) \(catalog.latest.title)")
do {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
} catch {
    fail("cannot create \(folder.relativePath): \(error.localizedDescription)")
}
let store = ThumbnailStore(client: client, cache: cache)
let (stored, imageProblems) = await store.store(catalog.entries, in: folder)
let problems = (catalog.problems + imageProblems).sorted { $0.number < $1.number }
for problem in problems { report(problem.description) }
report(store.costSummary)
print("thumbnails: \(stored) of \(catalog.latest.num) comics in \(folder.relativePath)")
if writesBook {
    // The thumbnails stored, in comic order, as the pages of one comic book archive.
    var book = ComicBook(series: base.host, title: "#1-#\(catalog.latest.num)")
    for entry in catalog.entries.sorted(by: { $0.comic.num < $1.comic.num }) {
        let file = folder.appendingPathComponent(ThumbnailStore.fileName(for: entry.comic))
        if let bytes = FileManager.default.contents(atPath: file.path) {
            book.pages.append(ComicBook.Page(bytes: bytes, fileExtension: "jpg"))
        }
    }
    do throws(DownloadError) {
        try book.write(to: folder.appendingPathComponent("comics.cbz"))
        print("comic book: \(book.pages.count) pages in \(folder.appendingPathComponent("comics.cbz").relativePath)")
    } catch {
        fail("cannot write the comic book: \(error)")
    }
}
if !problems.isEmpty {
    print("missing: " + problems.map { "#\($0.number)" }.joined(separator: ", "))
}
exit(problems.isEmpty ? 0 : 1)
