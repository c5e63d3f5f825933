import Foundation

/// One line of the JSON Lines manifest: what became of one item.
///
/// ```json
/// {"url":"https://example.com/a.png","name":"a.png","status":"ok","httpStatus":200,"bytes":1234,...}
/// ```
///
/// Keys keep the order of the properties; those added later (`warnings`, then `etag` and `lastModified`,
/// then `recipe`) come last, so older keys never move.
public struct ManifestRecord: Codable, Sendable, Hashable {
    /// What became of the item.
    public enum Status: String, Codable, Sendable {
        /// Downloaded, verified, (processed,) and stored under ``ManifestRecord/name``.
        case ok
        /// Not stored; ``ManifestRecord/error`` and ``ManifestRecord/errorKind`` say why.
        case failed
        /// Not downloaded: already done by an earlier run, or the same URL as an earlier item of the batch.
        case skipped
        /// Revalidated by a refresh: the server answered `304` (or the same bytes), and the stored file under
        /// ``ManifestRecord/name`` was left as it was.
        case unchanged
        /// Revalidated by a refresh: the server answered `404` or `410`. The stored file is kept under
        /// ``ManifestRecord/name``, or deleted (no name) when the refresh prunes.
        case gone
    }

    /// The item's URL, as given.
    public var url: String
    /// The stored file's name inside the output folder.
    public var name: String?
    /// The outcome.
    public var status: Status
    /// The last HTTP status received.
    public var httpStatus: Int?
    /// The stored file's size.
    public var bytes: Int?
    /// The SHA-256 of the stored file, lowercase hex.
    public var sha256: String?
    /// The stored image's width in pixels.
    public var width: Int?
    /// The stored image's height in pixels.
    public var height: Int?
    /// The stored format: `png` or `jpeg`.
    public var format: String?
    /// The number of transfers made (0 when skipped).
    public var attempts: Int
    /// Seconds from the first attempt to the end.
    public var elapsed: Double
    /// What went wrong, for people.
    public var error: String?
    /// What went wrong, as a stable name (see ``DownloadError/shortName`` and ``URLListError/shortName``); `duplicate`,
    /// `already-done` or `already-failed` for skips.
    public var errorKind: String?
    /// The benign decode warnings of a stored image, each `code: message` (`jpeg-extraneous-bytes: Corrupt
    /// JPEG data: 5 extraneous bytes before marker 0xdb`), so a script can filter on the stable code
    /// before the colon; `nil` (the key left out) when there are none. Warnings that lose pixels never
    /// reach an `ok` record: they fail the item (and are retried).
    public var warnings: [String]?
    /// The `ETag` the server sent with the stored file, as sent; a refresh asks `If-None-Match` with it.
    public var etag: String?
    /// The `Last-Modified` the server sent with the stored file, as sent; a refresh asks `If-Modified-Since`
    /// with it.
    public var lastModified: String?
    /// What produced the stored file: the processing's ``ImageProcessing/identifier`` and the output format
    /// (see ``DownloadOptions/recipe``); `nil` for bytes stored as they came, and in manifests written before
    /// the field existed. A later run whose recipe differs makes the file again.
    public var recipe: String?
    /// The archive holding the item (``DownloadOptions/archive``), such as `00003.tar`: there ``name`` is
    /// the member's name inside it; `nil` for loose files.
    public var archive: String?

    /// The keys as written, declared once for the writer, the fast reader and `Codable`.
    typealias CodingKeys = ManifestKey

    /// A record; fields left out are `nil`, and empty `warnings` are `nil`.
    public init(
        url: String, name: String? = nil, status: Status, httpStatus: Int? = nil, bytes: Int? = nil,
        sha256: String? = nil, width: Int? = nil, height: Int? = nil, format: String? = nil, attempts: Int = 0,
        elapsed: Double = 0, error: String? = nil, errorKind: String? = nil, warnings: [String]? = nil,
        etag: String? = nil, lastModified: String? = nil, recipe: String? = nil,
        archive: String? = nil
    ) {
        self.url = url
        self.name = name
        self.status = status
        self.httpStatus = httpStatus
        self.bytes = bytes
        self.sha256 = sha256
        self.width = width
        self.height = height
        self.format = format
        self.attempts = attempts
        self.elapsed = elapsed
        self.error = error
        self.errorKind = errorKind
        self.warnings = warnings?.isEmpty == true ? nil : warnings
        self.etag = etag
        self.lastModified = lastModified
        self.recipe = recipe
        self.archive = archive
    }
}
