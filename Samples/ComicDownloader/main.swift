// comic-downloader: the seed use case of Pixpipe, written as a reader would. It reads a comic site's JSON
// API shaped like xkcd's with `Request<Comic>`, then stores a 200-pixel thumbnail of every comic's image.
// Archives have holes and servers bad moments: a missing comic (404) or one whose JSON or image fails for
// good is reported by number on standard error and the run goes on; a `503` with `Retry-After` is waited
// out. Exit status 1 when any comic is missing, 0 when every comic up to the latest is a thumbnail.
//
//   comic-downloader BASE_URL OUT_DIR     e.g. comic-downloader http://127.0.0.1:8000 comics
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

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = "usage: comic-downloader BASE_URL OUT_DIR | comic-downloader --make-site DIR"

if arguments.count == 2, arguments[0] == "--make-site" {
    do {
        try SiteMaker.make(in: URL(fileURLWithPath: arguments[1], isDirectory: true))
        print("site written to \(arguments[1])")
        exit(0)
    } catch {
        fail("cannot write the site: \(error)")
    }
}
guard arguments.count == 2, let base = URL(string: arguments[0]), base.scheme?.hasPrefix("http") == true else {
    fail(usage, status: 2)
}

let catalog: ComicCatalog
do throws(FetchError) {
    catalog = try await ComicCatalog.read(from: base, client: ComicCatalog.client(for: base))
} catch {
    fail("cannot read the latest comic: \(error)")
}
print("latest comic: #\(catalog.latest.num) \(catalog.latest.title)")
let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
let (stored, imageProblems) = await ThumbnailStore.store(catalog.entries, in: folder)
let problems = (catalog.problems + imageProblems).sorted { $0.number < $1.number }
for problem in problems { report(problem.description) }
print("thumbnails: \(stored) of \(catalog.latest.num) comics in \(arguments[1]) (see manifest.jsonl)")
if !problems.isEmpty {
    print("missing: " + problems.map { "#\($0.number)" }.joined(separator: ", "))
}
exit(problems.isEmpty ? 0 : 1)
