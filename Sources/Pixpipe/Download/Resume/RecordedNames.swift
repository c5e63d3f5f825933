/// The names an output folder's manifest gives out, and to which URL: taken for every other URL, whatever
/// list or run the new item comes from.
///
/// A name is kept as the 8-byte fingerprint of its claim key (``FileNamePattern/init(recordedName:)``: the
/// extension left open, as claims compare names), with the fingerprint of the URL whose latest record holds
/// it (the whole 16-byte ``URLFingerprint``, which no list can forge): 24 bytes a stored URL. A name that several URLs' latest records hold (a folder written before names
/// were reserved across runs, when two lists overwrote one another's file) belongs to none of them: each
/// takes a new name on its next download, and the folder comes apart again.
struct RecordedNames: Sendable {
    private var owners: [UInt64: URLFingerprint] = [:]
    /// Names held by more than one URL.
    private var contested: Set<UInt64> = []
    /// The same for each stem with its extension left open (``FileNamePattern/init(recordedName:)``), which
    /// claims that cannot tell their extension compare with.
    private var stemOwners: [UInt64: URLFingerprint] = [:]
    private var contestedStems: Set<UInt64> = []

    /// No names.
    init() {}

    /// The names the latest record of each URL in `prior` holds.
    init(_ prior: PriorIndex) {
        owners.reserveCapacity(prior.count)
        prior.forEachRecordedName { url, name in
            let text = String(decoding: name, as: UTF8.self)
            add(FileNamePattern(literalName: text).collisionFingerprint, owner: url)
            let stem = FileNamePattern(recordedName: text).collisionFingerprint
            if let existing = stemOwners.updateValue(url, forKey: stem), existing != url { contestedStems.insert(stem) }
        }
    }

    /// Whether no name is recorded.
    var isEmpty: Bool { owners.isEmpty }

    /// Records that the URL with fingerprint `owner` holds the name with claim fingerprint `key`.
    mutating func add(_ key: UInt64, owner: URLFingerprint) {
        if let existing = owners.updateValue(owner, forKey: key), existing != owner { contested.insert(key) }
    }

    /// Whether the name with claim fingerprint `key` may go to the URL with fingerprint `url`: no record
    /// holds it, or only that URL's does.
    func allows(_ key: UInt64, to url: URLFingerprint) -> Bool {
        guard let owner = owners[key] else { return true }
        return owner == url && !contested.contains(key)
    }

    /// Whether the stem with claim fingerprint `key` (extension left open) may go to the URL with
    /// fingerprint `url`: no record holds a name of that stem, or only that URL's do.
    func allowsStem(_ key: UInt64, to url: URLFingerprint) -> Bool {
        guard let owner = stemOwners[key] else { return true }
        return owner == url && !contestedStems.contains(key)
    }
}
