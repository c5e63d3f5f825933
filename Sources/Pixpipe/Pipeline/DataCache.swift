import Foundation
import PixpipeHTTP
import PixpipeLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A disk cache of original bytes and their HTTP metadata: a folder of self-checking entries with a size
/// limit, least recently used first out.
///
/// ```swift
/// let cache = try DataCache(directory: URL(fileURLWithPath: "/var/cache/avatars"), sizeLimit: 500 << 20)
/// try cache.store(DataCacheEntry(data: bytes, metadata: metadata), for: url.absoluteString)
/// if let hit = cache.entry(for: url.absoluteString) { ... hit.data, hit.metadata ... }
/// ```
///
/// Each key is one file named by the SHA-256 of the key (64 hex digits), in the format of
/// `DataCacheEntryFormat`: a header with the lengths and a SHA-256 of the contents. A file that does not
/// check out (flipped, truncated, foreign) is deleted and read as a miss; it is never returned.
///
/// **Sharing a folder: a rename-only protocol, no locks.** An entry is written whole to a hidden
/// temporary file in the folder and renamed over its name (`AtomicFileWriter`); nothing ever writes to a
/// file that has a final name. A reader opens the name once and reads that one file to its end, so it
/// sees either the old whole entry or the new whole entry, from this process or any other, and never a
/// torn one; a process killed mid-write leaves only a temporary file, which readers never open and the
/// next ``init(directory:sizeLimit:)`` removes once it is an hour old. Deleting (eviction, corruption) is
/// an `unlink`, which does not disturb a reader that already opened the file.
///
/// Writes are not flushed to the disk one by one (no `fsync` per entry): a power failure may lose recent
/// entries or leave a renamed file whose bytes never arrived, which the digest then rejects as a miss.
/// A cache may lose entries; it must not return wrong ones.
///
/// **Recency without a write per read.** The order of use is kept in memory (`RecencyList`), rebuilt when
/// the cache opens from the files' modification times (a write sets it). A hit touches the file's
/// modification time only when the recorded one is older than ``touchInterval``, so a hot entry costs
/// one metadata write per interval, and the next process to open the folder still sees roughly which
/// entries were used last. Each process evicts by its own view: entries another process wrote are
/// counted once this process reads them or reopens the folder, so with several writers the folder can
/// exceed the limit until the next open trims it.
public final class DataCache: Sendable {
    /// What the index knows of one entry file.
    struct FileRecord {
        /// The file's size in bytes.
        var size: Int
        /// The file's modification time as last set or read.
        var modified: Date
    }

    /// The folder of entries.
    public let directory: URL
    /// The most bytes of entry files the folder should hold.
    public let sizeLimit: Int
    /// How stale a file's modification time may get before a hit refreshes it: ten minutes.
    public static let touchInterval: TimeInterval = 600
    /// How old a temporary file must be before opening the cache removes it as a killed writer's leftover.
    static let abandonedTemporaryAge: TimeInterval = 3_600

    /// File names (hashes) in order of use, with their sizes.
    let index: Locked<RecencyList<String, FileRecord>>

    /// Opens (creating if needed) the cache in `directory`, indexing the entries there by modification
    /// time and trimming them to `sizeLimit` bytes (default 256 MiB).
    public init(directory: URL, sizeLimit: Int = 256 << 20) throws(DataCacheError) {
        self.directory = directory
        self.sizeLimit = sizeLimit
        let path = directory.path
        // Owner only: the entries are response bodies, which other local users have no business reading.
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw .cannotCreateDirectory(path: path, code: errno)
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw .cannotCreateDirectory(path: path, code: errno == 0 ? ENOTDIR : errno)
        }
        index = Locked(Self.scan(directory))
        trim()
    }

    /// The file name of `key`'s entry: the SHA-256 of its UTF-8 bytes in hex.
    public static func fileName(for key: String) -> String {
        SHA256.hash(Data(key.utf8)).hexString
    }

    /// The entry for `key` if a whole, unaltered one is stored; a damaged one is deleted and reads as `nil`.
    ///
    /// The folder is not trusted to hold only what this class wrote: the name is opened without following a
    /// symbolic link and without waiting on a FIFO (`O_NOFOLLOW | O_NONBLOCK`), anything but a regular file
    /// is a miss, and the read is bounded before it starts: the header is read first, and the file is read
    /// only when its size is exactly what the header declares and within ``sizeLimit`` (a file of any other
    /// size is damaged, and deleted unread).
    public func entry(for key: String) -> DataCacheEntry? {
        let name = Self.fileName(for: key)
        let path = directory.appendingPathComponent(name).path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            // A symbolic link at the name (`ELOOP`) is not an entry: the link goes, its target is untouched.
            if errno == ELOOP { unlink(path) }
            index.withLock { _ = $0.remove(name) }
            return nil
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        guard status.st_mode & S_IFMT == S_IFREG,
            let file = Self.readEntryFile(descriptor, size: Int(status.st_size), limit: sizeLimit)
        else {
            removeDamaged(name: name, path: path, status: status)
            return nil
        }
        guard let entry = DataCacheEntryFormat.decode(file, key: key) else {
            removeDamaged(name: name, path: path, status: status)
            return nil
        }
        let now = Date()
        let size = file.count
        let stale = index.withLock { list -> Bool in
            guard var record = list.touch(name) else {
                // Written by another process since this one opened the folder.
                list.insert(FileRecord(size: size, modified: now), for: name, cost: size)
                return false
            }
            let touch = now.timeIntervalSince(record.modified) > Self.touchInterval
            // Another process may have replaced the file with one of another size.
            guard touch || record.size != size else { return false }
            if touch { record.modified = now }
            record.size = size
            list.insert(record, for: name, cost: size)
            return touch
        }
        // Setting the time on the open file, so that a file renamed over the name meanwhile is left alone.
        if stale { _ = futimens(descriptor, nil) }
        return entry
    }

    /// The bytes stored for `key`, if any (see ``entry(for:)``).
    public func data(for key: String) -> Data? {
        entry(for: key)?.data
    }

    /// Stores `entry` for `key`, replacing any entry there, then evicts the least recently used entries
    /// while the folder is over the limit. An entry larger than the whole limit is not stored (and any
    /// older entry for `key` is removed).
    public func store(_ entry: DataCacheEntry, for key: String) throws(DataCacheError) {
        let name = Self.fileName(for: key)
        let path = directory.appendingPathComponent(name).path
        let file = DataCacheEntryFormat.encode(entry, key: key)
        guard file.count <= sizeLimit else {
            removeEntry(for: key)
            return
        }
        do {
            // Owner only, like the folder (see `init`).
            try AtomicFileWriter.write(file, to: path, flushes: false, permissions: 0o600)
        } catch {
            throw .cannotWrite(path: path, code: error.code)
        }
        index.withLock { _ = $0.insert(FileRecord(size: file.count, modified: Date()), for: name, cost: file.count) }
        trim()
    }

    /// Stores `data` with `metadata` for `key` (see ``store(_:for:)``).
    public func store(_ data: Data, metadata: HTTPCacheMetadata? = nil, for key: String) throws(DataCacheError) {
        try store(DataCacheEntry(data: data, metadata: metadata), for: key)
    }

    /// Replaces the metadata of `key`'s entry, keeping its bytes (after a `304 Not Modified`, with
    /// ``HTTPCacheMetadata/updated(with:requestTime:responseTime:)``); `false` when no whole entry is stored.
    /// The entry is rewritten whole, like any store, so readers still see either the old or the new one.
    @discardableResult
    public func updateMetadata(_ metadata: HTTPCacheMetadata, for key: String) throws(DataCacheError) -> Bool {
        guard var entry = entry(for: key) else { return false }
        entry.metadata = metadata
        try store(entry, for: key)
        return true
    }

    /// Removes the entry for `key`, if any.
    public func removeEntry(for key: String) {
        let name = Self.fileName(for: key)
        index.withLock { _ = $0.remove(name) }
        unlink(directory.appendingPathComponent(name).path)
    }

    /// Removes every entry in the folder, including those other processes wrote.
    public func removeAll() {
        index.withLock { $0.removeAll() }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where Self.isEntryName(name) {
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    /// The bytes of the entry files this process knows of.
    public var totalSize: Int { index.withLock { $0.totalCost } }

    /// The number of entries this process knows of.
    public var count: Int { index.withLock { $0.count } }

    /// Evicts least recently used entries while the total is over the limit, down to 90% of it, so that a
    /// full cache does not evict on every store.
    func trim() {
        let limit = sizeLimit
        let evicted = index.withLock { list -> [String] in
            guard list.totalCost > limit else { return [] }
            var names: [String] = []
            while list.totalCost > limit - limit / 10, let oldest = list.removeOldest() { names.append(oldest.key) }
            return names
        }
        // Unlinked outside the lock: file-system calls must not hold up other tasks' lookups.
        for name in evicted { unlink(directory.appendingPathComponent(name).path) }
    }

    /// Deletes a file that failed its check, unless another writer already replaced it with a new file.
    private func removeDamaged(name: String, path: String, status: stat) {
        index.withLock { _ = $0.remove(name) }
        var current = stat()
        // The rename-only protocol means a different inode is a different (whole) entry: leave it. What
        // remains is a window between this `stat` and the `unlink` that can delete a good new entry,
        // which costs a miss, never a wrong answer.
        guard lstat(path, &current) == 0, current.st_ino == status.st_ino, current.st_dev == status.st_dev else {
            return
        }
        unlink(path)
    }

    /// The bytes of the entry file behind `descriptor` (`size` bytes as `fstat` said), read only when its
    /// header declares exactly that size and it is within `limit`; `nil` for any other file, or on a read
    /// error. Never more than the header's bytes are read from a file that does not check out.
    private static func readEntryFile(_ descriptor: Int32, size: Int, limit: Int) -> Data? {
        let headerSize = DataCacheEntryFormat.headerSize
        guard size >= headerSize, size <= limit else { return nil }
        guard let header = readExactly(descriptor, count: headerSize),
            let declared = DataCacheEntryFormat.declaredFileSize(header), declared == UInt64(size)
        else { return nil }
        guard let rest = readExactly(descriptor, count: size - headerSize) else { return nil }
        return header + rest
    }

    /// Exactly `count` bytes from `descriptor`'s current offset, or `nil` on a read error or an early end.
    private static func readExactly(_ descriptor: Int32, count size: Int) -> Data? {
        var data = Data(count: size)
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < size {
                let count = read(descriptor, base + offset, size - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        return complete ? data : nil
    }
}

extension DataCache {
    /// The folder ``ImagePipeline/shared`` keeps its disk cache in: `$XDG_CACHE_HOME/pixpipe` on Linux, or
    /// `~/.cache/pixpipe` when `XDG_CACHE_HOME` is unset, empty or relative (as the XDG Base Directory
    /// specification says); `~/Library/Caches/pixpipe` on macOS. `nil` when there is no home folder.
    ///
    /// ```swift
    /// let cache = try DataCache(directory: DataCache.defaultDirectory!.appendingPathComponent("avatars"))
    /// ```
    public static var defaultDirectory: URL? {
        #if os(macOS)
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?
                .appendingPathComponent("pixpipe", isDirectory: true)
        #else
            defaultDirectory(environment: ProcessInfo.processInfo.environment)
        #endif
    }

    /// The Linux rule of ``defaultDirectory`` for `environment`: `XDG_CACHE_HOME` when absolute, else
    /// `HOME/.cache`, then `pixpipe`.
    package static func defaultDirectory(environment: [String: String]) -> URL? {
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
            return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("pixpipe", isDirectory: true)
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".cache/pixpipe", isDirectory: true)
    }

    /// Opens the cache in `directory`, first making its missing parents (owner-only, as the XDG
    /// specification asks of the cache base folder).
    static func openCreatingParents(_ directory: URL) throws -> DataCache {
        try FileManager.default.createDirectory(
            at: directory.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        return try DataCache(directory: directory)
    }
}
