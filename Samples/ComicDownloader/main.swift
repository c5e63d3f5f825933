// comic-downloader: the seed use case of Pixpipe, written as a reader would. It reads a comic site's JSON
// API shaped like xkcd's with `Request<Comic>`, then downloads every comic's image with the `Downloader`,
// verified, and stores 200-pixel thumbnails and a manifest.
//
//   comic-downloader BASE_URL OUT_DIR     e.g. comic-downloader http://127.0.0.1:8000 comics
//   comic-downloader --make-site DIR      writes a small generated comic site into DIR
import Foundation
import Pixpipe

/// Prints `message` on standard error and exits with `status`.
func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("comic-downloader: \(message)\n".utf8))
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

let client = HTTPClient(configuration: HTTPClient.Configuration(baseURL: base))
do {
    // The latest comic says how many there are; each one then names its image.
    let latest = try await client.send(Request<Comic>(path: "/info.0.json"))
    print("latest comic: #\(latest.num) \(latest.title)")
    var items: [DownloadItem] = []
    for number in 1...max(1, latest.num) {
        let comic = try await client.send(Request<Comic>(path: "/\(number)/info.0.json"))
        guard let imageURL = URL(string: comic.img, relativeTo: base)?.absoluteURL else {
            print("comic #\(number): image URL '\(comic.img)' is not usable")
            continue
        }
        items.append(DownloadItem(url: imageURL, name: "\(comic.num)-\(comic.title)"))
    }

    var options = DownloadOptions(outputDirectory: URL(fileURLWithPath: arguments[1], isDirectory: true))
    options.processing = [.thumbnail(ThumbnailOptions(size: .box(200)))]
    options.outputEncoding = .jpeg(quality: 85)
    let summary = await Downloader(options: options).download(items)
    print("thumbnails: \(summary.ok) written, \(summary.failed) failed, \(summary.skipped) already there")
    print("in \(arguments[1]) (see manifest.jsonl)")
    exit(summary.failed == 0 && summary.stopReason == nil ? 0 : 1)
} catch {
    fail("cannot read the comics: \(error)")
}
