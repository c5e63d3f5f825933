/// Why a ``Shard`` could not be made.
public enum ShardError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The count is below 1.
    case invalidCount(Int)
    /// The index is not in `0..<count`.
    case indexOutOfRange(index: Int, count: Int)

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .invalidCount(let count): "invalid shard count \(count): it must be at least 1"
        case .indexOutOfRange(let index, let count): "shard index \(index) is not in 0..<\(count)"
        }
    }
}

extension ShardError {
    /// A stable short name of the case: `invalid-shard-count` or `shard-index-out-of-range`.
    public var shortName: String {
        switch self {
        case .invalidCount: "invalid-shard-count"
        case .indexOutOfRange: "shard-index-out-of-range"
        }
    }
}
