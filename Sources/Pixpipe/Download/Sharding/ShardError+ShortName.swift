extension ShardError {
    /// A stable short name of the case: `invalid-shard-count` or `shard-index-out-of-range`.
    public var shortName: String {
        switch self {
        case .invalidCount: "invalid-shard-count"
        case .indexOutOfRange: "shard-index-out-of-range"
        }
    }
}
