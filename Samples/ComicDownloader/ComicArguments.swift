import Foundation

/// What the command line asks for: a site to download into a folder, with the image cache's place and
/// size, or a site to generate.
enum ComicArguments {
    /// Download the comics of `base` as thumbnails into `output`, keeping the images' bytes in `cache`; with
    /// `cbz`, also pack the thumbnails into `output/comics.cbz`.
    case download(base: URL, output: URL, cache: URL, cacheSizeLimit: Int, cbz: Bool)
    /// Write the generated comic site into the folder.
    case makeSite(URL)
    /// Print ``usage`` on standard output.
    case help

    /// The cache folder's name inside the output folder when `--cache` is not given: hidden, so that it is
    /// not mistaken for a thumbnail (thumbnail names never start with a dot).
    static let defaultCacheName = ".cache"
    /// The cache folder's size limit in MiB when `--cache-size` is not given.
    static let defaultCacheMegabytes = 256

    /// The help text.
    static let usage = """
        usage: comic-downloader [--cache DIR] [--cache-size MB] [--cbz] BASE_URL OUT_DIR
               comic-downloader --make-site DIR
        Reads a comic site's xkcd-shaped JSON API at BASE_URL and writes a \(ThumbnailStore.size)-pixel JPEG
        thumbnail of every comic into OUT_DIR. The images go through an ImagePipeline with a disk cache, so
        that a second run asks the site only about what is stale (a 304 costs no download); the comics'
        JSON is read again every run, to find new comics, and a copy kept in the cache. When the site cannot
        be reached (refused, timed out; not a 5xx), the cached JSON and images stand in, stale or not,
        unless sent with must-revalidate or no-cache; standard error says how many, and a comic not in
        the cache is missing.
          --cache DIR       the disk cache of the images' bytes (default: OUT_DIR/\(defaultCacheName))
          --cache-size MB   the most the cache folder holds, least recently used out first (default: \
        \(defaultCacheMegabytes))
          --cbz             also packs the thumbnails, in comic order, into OUT_DIR/comics.cbz (a comic book
                            archive with a ComicInfo.xml naming the site as the series)
          --make-site DIR   writes a small generated comic site into DIR, to serve and download
          --help            shows this help
        Exit status: 0 every comic up to the latest is a thumbnail, 1 some comic is missing, 2 usage.
        """

    /// The arguments `arguments` (without the program's name) ask for, or a usage error's message.
    static func parse(_ arguments: [String]) -> Result<ComicArguments, UsageError> {
        if arguments.contains("--help") || arguments.contains("-h") { return .success(.help) }
        if arguments.count == 2, arguments[0] == "--make-site" {
            return .success(.makeSite(URL(fileURLWithPath: arguments[1], isDirectory: true)))
        }
        var positional: [String] = []
        var cache: String?
        var megabytes = defaultCacheMegabytes
        var cbz = false
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--cache":
                guard let value = remaining.popFirst(), !value.isEmpty else {
                    return .failure("--cache needs a folder")
                }
                cache = value
            case "--cache-size":
                guard let value = remaining.popFirst().flatMap({ Int($0) }), (1...(1 << 20)).contains(value) else {
                    return .failure("--cache-size needs a whole number of MiB from 1 to 1048576")
                }
                megabytes = value
            case "--cbz":
                cbz = true
            case _ where argument.hasPrefix("-"):
                return .failure("unknown option \(argument)")
            default:
                positional.append(argument)
            }
        }
        guard positional.count == 2 else { return .failure("expected BASE_URL and OUT_DIR") }
        guard let base = URL(string: positional[0]), base.scheme?.hasPrefix("http") == true else {
            return .failure("BASE_URL must be an http or https URL: \(positional[0])")
        }
        let output = URL(fileURLWithPath: positional[1], isDirectory: true)
        let cacheFolder =
            cache.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? output.appendingPathComponent(defaultCacheName, isDirectory: true)
        return .success(
            .download(base: base, output: output, cache: cacheFolder, cacheSizeLimit: megabytes << 20, cbz: cbz))
    }

    /// A command line that does not say what to do, in a sentence.
    struct UsageError: Error, ExpressibleByStringInterpolation, CustomStringConvertible {
        /// What is wrong.
        var description: String

        /// The error saying `value`.
        init(stringLiteral value: String) { description = value }
    }
}
