import Foundation

/// What a refresh knows of a file an earlier run stored: its name, size and hash (checked against the file
/// by ``ResumeCheck`` before the item is dispatched) and the validators the server sent with it.
struct StoredCopy: Sendable, Hashable {
    /// The file's name in the output folder.
    var name: String
    /// Its size.
    var bytes: Int
    /// Its SHA-256, lowercase hex.
    var sha256: String
    /// The `ETag` recorded with it.
    var etag: String?
    /// The `Last-Modified` recorded with it.
    var lastModified: String?
    /// What produced it (``ManifestRecord/recipe``), as recorded.
    var recipe: String?

    /// The stored copy behind `entry`, whose file `verified` (the resume's skip record: name, size and hash
    /// read from the file) shows to be as recorded; `nil` unless the entry is a stored file.
    init?(_ entry: PriorIndex.Entry, verified: ManifestRecord) {
        guard entry.outcome == .ok, let name = verified.name, let bytes = verified.bytes,
            let sha256 = verified.sha256
        else { return nil }
        self.init(name: name, bytes: bytes, sha256: sha256, etag: entry.etag, lastModified: entry.lastModified)
        recipe = entry.recipe
    }

    /// A stored copy from its parts.
    init(name: String, bytes: Int, sha256: String, etag: String? = nil, lastModified: String? = nil) {
        self.name = name
        self.bytes = bytes
        self.sha256 = sha256
        self.etag = etag
        self.lastModified = lastModified
    }

    /// `If-None-Match` and `If-Modified-Since` from the validators, as ``HTTPCacheMetadata`` makes them;
    /// empty without validators (the item is then fetched in full and compared by hash).
    var conditionalHeaders: HTTPHeaders {
        var validators = HTTPHeaders()
        if let etag { validators["ETag"] = etag }
        if let lastModified { validators["Last-Modified"] = lastModified }
        let now = Date()
        return HTTPCacheMetadata(statusCode: 200, headers: validators, requestTime: now, responseTime: now)
            .conditionalHeaders
    }

    /// A record of the item that keeps this file as its stored state: name, size, hash, validators and recipe (a
    /// resumed run or a later refresh reads it as the stored file, see ``PriorIndex``).
    func record(url: URL, status: ManifestRecord.Status, httpStatus: Int?) -> ManifestRecord {
        ManifestRecord(
            url: url.absoluteString, name: name, status: status, httpStatus: httpStatus, bytes: bytes, sha256: sha256,
            etag: etag, lastModified: lastModified, recipe: recipe)
    }
}
