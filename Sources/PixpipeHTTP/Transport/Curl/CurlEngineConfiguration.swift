/// Limits of a ``CurlMultiEngine``: how many connections it opens and how many idle handles it keeps.
struct CurlEngineConfiguration: Sendable, Hashable {
    /// Connections to one host at once (`CURLMOPT_MAX_HOST_CONNECTIONS`); more transfers queue or multiplex.
    var maxConnectionsPerHost = 8
    /// Connections in total at once (`CURLMOPT_MAX_TOTAL_CONNECTIONS`).
    var maxTotalConnections = 64
    /// Idle connections kept open for reuse (`CURLMOPT_MAXCONNECTS`).
    var connectionCacheSize = 64
    /// Idle easy handles kept for reuse; more are freed when their transfer ends.
    var maxPooledHandles = 64

    /// The defaults above.
    init() {}
}
