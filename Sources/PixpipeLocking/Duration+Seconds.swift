extension Duration {
    /// The duration in seconds, as a `Double`: for records, rates and backoff arithmetic.
    ///
    /// Defined here, in the base target every layer depends on, so that the HTTP layer, the downloader, the
    /// command line and the bench convert one way.
    package var secondsValue: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
