import CPixpipeSystem
import Dispatch
import Foundation
import Pixpipe
import PixpipeLocking

/// `pixpipe fetch LIST --out DIR`: downloads a list of image URLs, verified, named, with a manifest.
struct FetchCommand: Command {
    let name = "fetch"
    let summary = "Download a list of image URLs into a folder, verified, with a resumable manifest."
    let usage = "pixpipe fetch [OPTIONS] LIST --out DIR"
    let details = """
        LIST is a file ('-' for standard input) or a single http(s) URL. A list holds one URL per line
        ('#' comments and blank lines skipped), or CSV/TSV with a header row naming a 'url' column and an
        optional 'name' column, or JSON Lines objects with 'url' and optional 'name'. The format is detected
        from the first line that is not a comment; --list-format overrides it. Lines that are not http(s) URLs
        are reported with their line number and recorded in the manifest as failed (errorKind 'invalid-url',
        'unsupported-scheme', 'missing-url', 'malformed-json', 'line-too-long'...); the others go on.
        Every image is verified by decoding it (a truncated one is fetched again; JPEGs kept as they came are
        decoded at 1/8 size, which still reads every byte; --no-verify reads only the header, so a damaged
        image is not noticed), then stored under its list name or its URL's last
        path component, with the extension of its real format (names clash only where the extensions do:
        a.gif and a.webp stay apart, two a.webp become a.webp and a-2.webp, in list order). --thumbnail N
        stores a JPEG, or a PNG for an image with alpha, as 'thumbnail' does.
        --name TEMPLATE builds names from {index}
        {name} {host} {sha256} {ext}. Files are written atomically (never partial, even if the process is
        killed) and flushed to the disk together when the batch ends; --fsync-each flushes each file as it
        is stored instead (slower; only matters if the machine itself crashes).
        Limits fail an item alone, with its errorKind: --max-bytes ('body-too-large'), --max-pixels
        ('too-large-image', with --thumbnail 'too-large-source'; without it, --thumbnail reads up to 1
        gigapixel, decoding at most 100 megapixels at the reduced size it needs), --max-frames
        ('too-many-frames'; not with --thumbnail, which reads the first frame alone), --max-redirects
        ('too-many-redirects'), --timeout for one attempt and --deadline for the whole item, retries
        included ('timeout' or 'deadline-exceeded').
        Politeness: --concurrency and --per-host bound the transfers at once; --rate N/s (or N/min) spaces the
        requests to each host, retries included, and --rate HOST=N/s sets one host's own rate (repeatable).
        With --shard, the shards writing to one folder keep --per-host, the rate, slowdowns and Retry-After
        pauses together (files per host under DIR/.pixpipe, locked with flock; where flock fails, each shard
        keeps them alone). A host answering 429 or 503 is slowed as a whole (Retry-After pauses it; without
        one its requests are spaced further, less so after each success), and the summary names it. A paced
        host's items wait for their turns without holding a connection, and those past --per-host wait outside
        the items in flight (up to --max-parked), so a slow host does not hold back the other hosts of a list.
        The User-Agent names pixpipe and its version unless --user-agent says otherwise.
        --robots fetches each host's robots.txt once and skips the URLs its rules for 'Pixpipe' (else '*')
        disallow, never asking for them ('robots-disallowed'); a robots.txt answered 4xx allows all, one
        answered 5xx or not at all skips the whole host for the run; its Crawl-delay spaces the host's
        requests. --respect-noai skips images whose X-Robots-Tag says noai or noimageai, stopping the
        transfer at the headers ('noai'). Both are off by default: the list's author chose the URLs. With
        --json, a 'hostPace' event tells each host slowed, paused, recovered or given a Crawl-delay.
        DIR/manifest.jsonl gets one JSON line per item: url, name, status (ok, failed, skipped, unchanged,
        gone), httpStatus, bytes, sha256, width, height, format, attempts, elapsed, error, errorKind, warnings,
        etag, lastModified (the validators the server sent with a stored file), recipe (what made the file:
        the processing and the output format; none for bytes stored as they came). Running again skips items
        already stored with the same recipe and makes the others again from a new download, 'N redone
        (options changed)' (--thumbnail 128 after a 256 run; a file recorded without a recipe counts as
        stored as it came); --retry-failed also retries the failures. --shard I/N takes the items whose URL hash
        falls in share I of N, so N machines can split one list and merge their folders.
        --refresh asks the server again about every item already stored (and still as stored), with
        If-None-Match / If-Modified-Since from the manifest: one small request each when nothing changed.
        304: 'unchanged', the file left as it is (an item without validators is fetched in full and compared
        by hash). New bytes: stored over the file atomically (processed again with --thumbnail/--convert),
        status 'ok' with the new sha256. 404 or 410: 'gone', the file kept; --prune deletes it instead, and
        also deletes the files an earlier refresh found gone and kept (if they still hold the recorded
        bytes). Any
        other failure keeps the file, and later runs still count it as stored. Items not stored yet are
        fetched as a plain run would; items found gone are skipped by later runs unless --retry-failed.
        Standard output gets the path of each stored file (or, with --json, one JSON event per line: invalid,
        started, finished with every manifest field, and summary last). Standard error gets failures, a
        progress bar when it is a terminal, and a summary.
        Redirects (up to --max-redirects) are checked hop by hop on the URL actually fetched next: only http
        and https, never https to http ('insecure-redirect'), and a 304 is never followed. A hop to another
        host, port or scheme carries no Authorization, Cookie, Proxy-Authorization nor --header value (only
        User-Agent, Accept*, Range and the validators go on); --keep-headers-on-redirect sends them all.
        TLS trusts the system's certificate authorities, or with the curl transport those of --cacert FILE
        and --capath DIR, else those CURL_CA_BUNDLE or SSL_CERT_FILE and SSL_CERT_DIR name; a file or folder
        that cannot be read is a usage error. URLSession on Linux cannot be given any: --cacert or --capath
        with --transport urlsession is a usage error.
        Exit status: 0 all stored (or unchanged), 1 some items or lines failed, or with --refresh but not
        --prune some items were found gone (with --prune, gone is what was asked for and counts as success),
        2 usage error (--prune without --refresh too), 130 interrupted by SIGINT (files being written are
        finished, the manifest is complete; a second SIGINT quits at once).
        --archive webdataset packs the stored images into WebDataset tar shards of --shard-size items in list
        order, 00000.tar, 00001.tar... (with --shard I/N: I-of-N-00000.tar...), each holding KEY.EXT (the
        image, or its thumbnail or conversion) and KEY.json (its manifest record), KEY being the item's 1-based
        position in the list (nine digits). A shard is written whole and renamed into place; the manifest
        names each item's shard ('archive') and member ('name'). A rerun skips the items of finished shards
        and redoes a shard a killed run left unfinished.
        --archive cbz writes a comic book archive: LIST.cbz for the whole list (named after the list file), or
        with --group-by COLUMN one book per value of that CSV/TSV column or JSON Lines key (such as 'chapter'),
        named after the value. Pages keep list order as 001.jpg, 002.png...; ComicInfo.xml holds the list's
        'series', 'number' and 'title' columns where present, and the page count. A book is written whole
        once all its pages are stored (a failed page holds it back; rerun, with --retry-failed, to finish it).

        Examples:
          pixpipe fetch urls.txt --out images --thumbnail 256
          pixpipe fetch comics.csv --out comics --name '{index}-{name}.{ext}' --shard 0/4
          pixpipe fetch https://example.com/cat.jpg --out .
          pixpipe fetch comics.csv --out comics --refresh --prune     # daily: revalidate, mirror deletions
        """
    let options: [OptionSpec] =
        [
            .value("out", short: "o", placeholder: "DIR", help: "Folder to store images and manifest.jsonl in."),
            .value(
                "list-format", placeholder: "FORMAT", help: "List format: lines, csv, tsv or jsonl (default: detected)."
            ),
            .value("concurrency", short: "j", placeholder: "N", help: "Downloads at once (default 16)."),
            .value("per-host", placeholder: "N", help: "Downloads at once from one host (default 8)."),
            .value(
                "max-parked", placeholder: "N",
                help: "Items of rate-limited hosts held back while other hosts go on (default 10000)."),
            .value("retries", placeholder: "N", help: "Retries after a failed attempt (default 2)."),
            .value("timeout", placeholder: "SECONDS", help: "Timeout of one attempt, fractions allowed (default 30)."),
            .value(
                "deadline", placeholder: "SECONDS",
                help: "Time for one item, retries and their waits included (default 300; 0 = none)."),
            .value(
                "max-redirects", placeholder: "N",
                help: "Redirects followed for one transfer (default \(RedirectPolicy.defaultMaxRedirects); 0 = none)."),
            .value("user-agent", placeholder: "TEXT", help: "User-Agent header to send."),
            .value("header", placeholder: "'K: V'", help: "Extra request header; repeatable."),
            .value(
                "rate", placeholder: "[HOST=]N[/s|/min]",
                help: "Requests a second (or a minute) to each host, or to HOST; repeatable (default: no rate)."),
            .value(
                "thumbnail", placeholder: "N",
                help: "Store thumbnails fitting N x N (PNG for images with alpha, else JPEG; --convert sets one)."),
            .value("convert", placeholder: "FORMAT", help: "Store images re-encoded as \(ImageFormat.writableNames)."),
            .flag(
                "animated",
                help:
                    "With --thumbnail, keep every frame of animations in an animated thumbnail"
                    + " (\(ThumbnailSettings.defaultAnimationFormat.rawValue), or --convert's format when it holds"
                    + " animations)."),
            .flag("robots", help: "Obey each host's robots.txt (fetched once per run); skip what it disallows."),
            .flag("respect-noai", help: "Skip images whose X-Robots-Tag says noai or noimageai (body not read)."),
            .flag("keep-original", help: "With --thumbnail or --convert, also store the original."),
            .value("name", placeholder: "TEMPLATE", help: "File name template: {index} {name} {host} {sha256} {ext}."),
            .value("shard", placeholder: "I/N", help: "Take share I (from 0) of N of the list, by URL hash."),
            .value(
                "archive", placeholder: "KIND",
                help: "Pack the stored images into archives: webdataset (tar shards) or cbz (comic books)."),
            .value(
                "shard-size", placeholder: "N", help: "With --archive webdataset, items per tar shard (default 1000)."),
            .value(
                "group-by", placeholder: "COLUMN", help: "With --archive cbz, one book per value of this list column."),
            .flag("retry-failed", help: "Retry items the manifest records as failed."),
            .flag("refresh", help: "Revalidate stored items (conditional requests): unchanged, updated or gone."),
            .flag("prune", help: "With --refresh, delete the files of items the server says are gone (404/410)."),
            .flag("dry-run", help: "Read the list and show the plan; download nothing."),
            .flag("lenient", help: "Store truncated or damaged images that decode leniently instead of failing them."),
            .flag("no-verify", help: "Store images as they came after reading only their header (no decode)."),
            .flag("fsync-each", help: "Flush each file to the disk as it is stored (default: all at the end)."),
            .flag("json", help: "Print events as JSON Lines on standard output."),
            .value(
                "transport", placeholder: "NAME", help: "HTTP transport: curl or urlsession (default: curl on Linux)."),
            .value(
                "cacert", placeholder: "FILE",
                help: "Trust the certificate authorities in this PEM file instead of the system's (curl transport)."),
            .value(
                "capath", placeholder: "DIR",
                help:
                    "Trust the hashed certificate authorities in this folder instead of the system's (curl transport)."),
            .flag(
                "keep-headers-on-redirect",
                help: "Send --header values and credentials on after a redirect to another host, port or scheme."),
        ] + LimitOptions.options(bytes: .body)

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitStatus {
        let settings = try FetchSettings(arguments)
        if settings.options.keepsOriginal, settings.options.storesAsReceived {
            console.warning("--keep-original has no effect without --thumbnail or --convert")
        }
        let runner = FetchRunner(settings: settings, console: console)
        // One malloc arena per core instead of glibc's default of up to 8 per core, set here, before the
        // batch's threads first allocate: fewer half-empty heaps than the default, without making every
        // thread wait on one lock. On two cores, against one arena: 7% less CPU and 6% less time for 2,000
        // small files, 0.6 MB more at the peak (docs/benchmarks.md, "Malloc arenas").
        _ = pxp_limit_malloc_arenas(Int32(clamping: ProcessInfo.processInfo.activeProcessorCount))
        // Commands are synchronous; the batch runs on the concurrency pool while this thread waits for it.
        let done = DispatchSemaphore(value: 0)
        let status = Locked(ExitStatus.failure)
        Task {
            let result = await runner.run()
            status.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return status.withLock { $0 }
    }
}
