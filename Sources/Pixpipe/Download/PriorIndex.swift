/// What an earlier run's manifest says about each URL, kept compact for a resumed batch.
///
/// A resumed run holds one entry per line of the manifest for the whole batch. As `String`s (status, name,
/// 64-character hex hash, error kind) that was about 300 bytes a URL, 104 MB at 200,000 lines. Here an
/// entry is a fixed 48-byte slot (the hash as 32 raw bytes, the size, a one-byte status, where the name is
/// in one shared byte buffer) plus its key in a dictionary of 8-byte URL fingerprints (the same identity
/// the batch already uses for duplicates and shards; two URLs share one with probability about 2^-64).
/// The error kind is reduced, when the line is read, to the one fact resuming needs: whether the failure
/// was the run's own (stopped, disk) rather than the item's. Later lines for a URL win over earlier ones.
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
            // Through the contiguous UTF-8 directly: the string's iterator cost 85 ms per 200,000 lines.
            var hex = hex
            guard
                let words = hex.withUTF8({ utf8 -> (UInt64, UInt64, UInt64, UInt64)? in
                    guard utf8.count == 64 else { return nil }
                    func word(_ number: Int) -> UInt64? {
                        var value: UInt64 = 0
                        for byte in utf8[number * 16..<number * 16 + 16] {
                            switch byte {
                            case 0x30...0x39: value = value << 4 | UInt64(byte - 0x30)
                            case 0x61...0x66: value = value << 4 | UInt64(byte - 0x61 + 10)
                            default: return nil
                            }
                        }
                        return value
                    }
                    guard let first = word(0), let second = word(1), let third = word(2), let fourth = word(3)
                    else { return nil }
                    return (first, second, third, fourth)
                })
            else { return nil }
            self.words = words
        }

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
                && lhs.words.3 == rhs.words.3
        }
    }

    /// A fixed 48-byte slot; the name is `nameLength` bytes at `nameOffset` of ``names`` (length -1: none).
    private struct Slot: Sendable {
        static let hasSHA256: UInt8 = 1
        static let hasBytes: UInt8 = 2

        var sha256: SHA256Bytes
        var bytes: Int64
        var nameOffset: UInt32
        var nameLength: Int16
        var outcome: Outcome
        /// Which of `sha256` and `bytes` the line had (``hasSHA256``, ``hasBytes``).
        var present: UInt8
    }

    private var slots: [Slot] = []
    private var slotByFingerprint: [UInt64: Int32] = [:]
    /// Every name, back to back.
    private var names: [UInt8] = []

    /// An empty index.
    init() {}

    /// How many URLs the index knows.
    var count: Int { slotByFingerprint.count }

    /// Records `line` for the URL with `fingerprint`, replacing what an earlier line said.
    mutating func insert(_ line: ManifestLine, fingerprint: UInt64) {
        let outcome: Outcome
        switch line.status {
        case .ok: outcome = .ok
        case .failed: outcome = DownloadError.isRunFailure(shortName: line.errorKind) ? .failedRun : .failedItem
        case .skipped: outcome = .skipped
        }
        let sha256 = line.sha256.flatMap(SHA256Bytes.init(hex:))
        var slot = Slot(
            sha256: sha256 ?? SHA256Bytes.zero, bytes: Int64(line.bytes ?? 0), nameOffset: 0, nameLength: -1,
            outcome: outcome,
            present: (sha256 == nil ? 0 : Slot.hasSHA256) | (line.bytes == nil ? 0 : Slot.hasBytes))
        // Names are at most a few hundred bytes (the writer limits them); a longer one is kept as no name,
        // which only means the item is downloaded again.
        if let name = line.name, name.utf8.count <= Int(Int16.max), names.count <= Int(UInt32.max) - name.utf8.count {
            slot.nameOffset = UInt32(names.count)
            slot.nameLength = Int16(name.utf8.count)
            names.append(contentsOf: name.utf8)
        }
        if let existing = slotByFingerprint[fingerprint] {
            slots[Int(existing)] = slot
        } else {
            slotByFingerprint[fingerprint] = Int32(slots.count)
            slots.append(slot)
        }
    }

    /// What the manifest says about the URL with `fingerprint`, if anything.
    subscript(fingerprint: UInt64) -> Entry? {
        guard let index = slotByFingerprint[fingerprint] else { return nil }
        let slot = slots[Int(index)]
        let name: [UInt8]? =
            slot.nameLength < 0
            ? nil : Array(names[Int(slot.nameOffset)..<Int(slot.nameOffset) + Int(slot.nameLength)])
        return Entry(
            outcome: slot.outcome, name: name, bytes: slot.present & Slot.hasBytes != 0 ? Int(slot.bytes) : nil,
            sha256: slot.present & Slot.hasSHA256 != 0 ? slot.sha256 : nil)
    }
}
