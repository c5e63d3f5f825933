/// What an earlier run's manifest says about each URL, kept compact for a resumed batch.
///
/// A resumed run holds one entry per line of the manifest for the whole batch. As `String`s (status, name,
/// 64-character hex hash, error kind) that was about 300 bytes a URL, 104 MB at 200,000 lines. Here an
/// entry is a fixed 64-byte slot (the hash as 32 raw bytes, the size, a one-byte status, where the name is
/// in one shared byte buffer, the second half of the URL's fingerprint) plus its key in a dictionary of the
/// first, 8-byte half. The identity is the whole 16-byte ``URLFingerprint`` (the one the batch uses for
/// duplicates: no list's author can make two URLs share it, so no item reads another's record), but keyed
/// by half of it the dictionary's table, which has room for up to twice the URLs, costs 8 bytes less per
/// place (4 MB at 200,000 lines); the other half is compared in the slot. URLs that share the first half
/// and not the second (a list's author can make such pairs with about 2^32 hashes) go to a second, small
/// dictionary keyed by the whole fingerprint.
/// The error kind is reduced, when the line is read, to the one fact resuming needs: whether the failure
/// was the run's own (stopped, disk) rather than the item's. Later lines for a URL win over earlier ones.
/// The validators of a stored file (`etag`, `lastModified`, for a refresh) follow its name in the same
/// buffer; their two lengths are what took a slot from 48 to 56 bytes, and the fingerprint's half to 64.
///
/// How a refresh's lines read: `unchanged` is `ok` (the line names the file, its hash and validators); a
/// `failed` line with the hash of the file the URL's line before it stored (a revalidation that failed, or
/// whose new file could not be written, keeps the stored file and says so) leaves the item `ok`, since the
/// file is checked against the hash before it counts; `gone` is its own outcome, kept like an item failure.
struct PriorIndex: Sendable {
    /// What the earlier run did with an item.
    enum Outcome: UInt8, Sendable {
        /// Stored; the file's name, size and hash are recorded.
        case ok
        /// Failed for a reason of the item's own (an HTTP error, a corrupt body...).
        case failedItem
        /// Failed because of the run (stopped, a disk error): says nothing about the item.
        case failedRun
        /// Skipped (a duplicate, or already done then): says nothing either.
        case skipped
        /// The server said `404` or `410` to a refresh (the file kept or pruned).
        case gone
    }

    /// One URL's record.
    struct Entry: Sendable {
        /// The outcome.
        var outcome: Outcome
        /// The stored file's name (UTF-8), when the record has one.
        var name: [UInt8]?
        /// The stored file's size, when recorded.
        var bytes: Int?
        /// The stored file's SHA-256, when recorded as 64 lowercase hex digits (anything else never matches).
        var sha256: SHA256Bytes?
        /// The stored file's `ETag`, when recorded.
        var etag: String? = nil
        /// The stored file's `Last-Modified`, when recorded.
        var lastModified: String? = nil
        /// What produced the stored file (``ManifestRecord/recipe``), when recorded.
        var recipe: String? = nil
    }

    /// A 32-byte digest held inline (no heap allocation per entry).
    struct SHA256Bytes: Sendable, Equatable {
        /// The four 8-byte words, big-endian, most significant first.
        var words: (UInt64, UInt64, UInt64, UInt64)

        /// All zero bits: the placeholder of a slot without a hash.
        static let zero = SHA256Bytes(words: (0, 0, 0, 0))

        private init(words: (UInt64, UInt64, UInt64, UInt64)) {
            self.words = words
        }

        /// The digest `bytes` (32 of them).
        init?(bytes: [UInt8]) {
            guard bytes.count == 32 else { return nil }
            func word(_ number: Int) -> UInt64 {
                bytes[number * 8..<number * 8 + 8].reduce(0) { $0 << 8 | UInt64($1) }
            }
            words = (word(0), word(1), word(2), word(3))
        }

        /// The digest written as 64 lowercase hex digits, as the manifest records it; `nil` for anything else
        /// (which, compared as text before, never matched a file's digest either).
        init?(hex: String) {
            var hex = hex
            guard let digest = hex.withUTF8({ Self(hexDigits: UnsafeRawBufferPointer($0)) }) else { return nil }
            self = digest
        }

        /// ``init(hex:)`` of the UTF-8 bytes `hexDigits`.
        init?(hexDigits utf8: UnsafeRawBufferPointer) {
            guard utf8.count == 64 else { return nil }
            func word(_ number: Int) -> UInt64? {
                var value: UInt64 = 0
                for position in number * 16..<number * 16 + 16 {
                    // Arithmetic, not range patterns: `ClosedRange.contains` was not inlined here.
                    let byte = utf8[position]
                    let digit: UInt8
                    if byte &- 0x30 < 10 {
                        digit = byte &- 0x30
                    } else if byte &- 0x61 < 6 {
                        digit = byte &- 0x61 &+ 10
                    } else {
                        return nil
                    }
                    value = value << 4 | UInt64(digit)
                }
                return value
            }
            guard let first = word(0), let second = word(1), let third = word(2), let fourth = word(3) else {
                return nil
            }
            words = (first, second, third, fourth)
        }

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
                && lhs.words.3 == rhs.words.3
        }
    }

    /// A fixed 64-byte slot; the name is `nameLength` bytes at `nameOffset` of ``names`` (length -1: none),
    /// followed there by the `etagLength` bytes of the ETag, the `lastModifiedLength` of Last-Modified and
    /// the `recipeLength` of the recipe.
    private struct Slot: Sendable {
        static let hasSHA256: UInt8 = 1
        static let hasBytes: UInt8 = 2

        var sha256: SHA256Bytes
        var bytes: Int64
        var nameOffset: UInt32
        var nameLength: Int16
        var etagLength: Int16 = -1
        var lastModifiedLength: Int16 = -1
        var recipeLength: Int16 = -1
        var outcome: Outcome
        /// Which of `sha256` and `bytes` the line had (``hasSHA256``, ``hasBytes``).
        var present: UInt8
        /// The second half of the URL's fingerprint (``URLFingerprint/low``).
        var low: UInt64
    }

    private var slots: [Slot] = []
    /// Slots by the first half of their URL's fingerprint (the first URL with that half).
    private var slotByFingerprint: [UInt64: Int32] = [:]
    /// Slots of URLs whose first half another URL of ``slotByFingerprint`` has, by the whole fingerprint.
    private var collidingSlots: [URLFingerprint: Int32] = [:]
    /// Every name (each followed by its validators), back to back.
    private var names: [UInt8] = []

    /// An empty index.
    init() {}

    /// How many URLs the index knows.
    var count: Int { slotByFingerprint.count + collidingSlots.count }

    /// The slot of the URL with `fingerprint`, if the index has one.
    private func slotIndex(of fingerprint: URLFingerprint) -> Int32? {
        guard let index = slotByFingerprint[fingerprint.shardValue] else { return nil }
        return slots[Int(index)].low == fingerprint.low ? index : collidingSlots[fingerprint]
    }

    /// Records `line` for the URL with `fingerprint`, replacing what an earlier line said.
    mutating func insert(_ line: ManifestLine, fingerprint: URLFingerprint) {
        let sha256 = line.sha256
        let existing = slotIndex(of: fingerprint)
        let outcome: Outcome
        switch line.status {
        case .ok, .unchanged: outcome = .ok
        // A failed refresh keeps the file stored before and says so with its hash.
        case .failed
        where sha256 != nil
            && existing.map({ slots[Int($0)].outcome == .ok && slots[Int($0)].sha256 == sha256 })
                == true:
            outcome = .ok
        case .failed: outcome = DownloadError.isRunFailure(shortName: line.errorKind) ? .failedRun : .failedItem
        case .skipped: outcome = .skipped
        case .gone: outcome = .gone
        }
        var slot = Slot(
            sha256: sha256 ?? SHA256Bytes.zero, bytes: Int64(line.bytes ?? 0), nameOffset: 0, nameLength: -1,
            outcome: outcome,
            present: (sha256 == nil ? 0 : Slot.hasSHA256) | (line.bytes == nil ? 0 : Slot.hasBytes),
            low: fingerprint.low)
        // Names are at most a few hundred bytes (the writer limits them); a longer one is kept as no name,
        // which only means the item is downloaded again. A validator that long is dropped: the refresh then
        // asks without it and compares the hash. (No arrays here: this runs once per line, on one thread.)
        let fits = { (text: String?) -> String? in text.flatMap { $0.utf8.count <= Int(Int16.max) ? $0 : nil } }
        let name = fits(line.name)
        let etag = fits(line.etag)
        let lastModified = fits(line.lastModified)
        let recipe = fits(line.recipe)
        let total =
            (name?.utf8.count ?? 0) + (etag?.utf8.count ?? 0) + (lastModified?.utf8.count ?? 0)
            + (recipe?.utf8.count ?? 0)
        if name != nil || etag != nil || lastModified != nil || recipe != nil, names.count <= Int(UInt32.max) - total {
            slot.nameOffset = UInt32(names.count)
            let length = { (text: String?) in text.map { Int16($0.utf8.count) } ?? -1 }
            if let name { names.append(contentsOf: name.utf8) }
            if let etag { names.append(contentsOf: etag.utf8) }
            if let lastModified { names.append(contentsOf: lastModified.utf8) }
            if let recipe { names.append(contentsOf: recipe.utf8) }
            slot.nameLength = length(name)
            slot.etagLength = length(etag)
            slot.lastModifiedLength = length(lastModified)
            slot.recipeLength = length(recipe)
        }
        if let existing {
            slots[Int(existing)] = slot
        } else if slotByFingerprint[fingerprint.shardValue] == nil {
            slotByFingerprint[fingerprint.shardValue] = Int32(slots.count)
            slots.append(slot)
        } else {
            collidingSlots[fingerprint] = Int32(slots.count)
            slots.append(slot)
        }
    }

    /// What the manifest says about the URL with `fingerprint`, if anything.
    subscript(fingerprint: URLFingerprint) -> Entry? {
        guard let index = slotIndex(of: fingerprint) else { return nil }
        let slot = slots[Int(index)]
        var offset = Int(slot.nameOffset)
        func text(length: Int16) -> [UInt8]? {
            guard length >= 0 else { return nil }
            defer { offset += Int(length) }
            return Array(names[offset..<offset + Int(length)])
        }
        let name = text(length: slot.nameLength)
        let etag = text(length: slot.etagLength).map { String(decoding: $0, as: UTF8.self) }
        let lastModified = text(length: slot.lastModifiedLength).map { String(decoding: $0, as: UTF8.self) }
        let recipe = text(length: slot.recipeLength).map { String(decoding: $0, as: UTF8.self) }
        return Entry(
            outcome: slot.outcome, name: name, bytes: slot.present & Slot.hasBytes != 0 ? Int(slot.bytes) : nil,
            sha256: slot.present & Slot.hasSHA256 != 0 ? slot.sha256 : nil, etag: etag, lastModified: lastModified,
            recipe: recipe)
    }
}

extension PriorIndex {
    /// Calls `body` with the URL fingerprint and the stored file's name (UTF-8) of every URL whose latest
    /// record names a file, in no set order: the names the folder's records give out (see ``RecordedNames``).
    func forEachRecordedName(_ body: (URLFingerprint, UnsafeBufferPointer<UInt8>) -> Void) {
        names.withUnsafeBufferPointer { buffer in
            func visit(_ fingerprint: URLFingerprint, _ index: Int32) {
                let slot = slots[Int(index)]
                guard slot.nameLength > 0 else { return }
                let start = Int(slot.nameOffset)
                body(fingerprint, UnsafeBufferPointer(rebasing: buffer[start..<start + Int(slot.nameLength)]))
            }
            for (first, index) in slotByFingerprint {
                visit(URLFingerprint(shardValue: first, low: slots[Int(index)].low), index)
            }
            for (fingerprint, index) in collidingSlots { visit(fingerprint, index) }
        }
    }
}
