extension FetchError {
    /// A stable short name of the case, for manifests, JSON output and summaries: `invalid-url`,
    /// `unsupported-scheme`, `request`, `transport`, `timeout`, `cancelled`, `http-status`, `content-type`,
    /// `body-too-large`, `too-many-redirects`, `insecure-redirect` or `conversion`.
    public var shortName: String {
        switch self {
        case .invalidURL: "invalid-url"
        case .unsupportedScheme: "unsupported-scheme"
        case .invalidRequestBody: "request"
        case .transport: "transport"
        case .timedOut: "timeout"
        case .cancelled: "cancelled"
        case .httpStatus: "http-status"
        case .unacceptableContentType: "content-type"
        case .bodyTooLarge: "body-too-large"
        case .tooManyRedirects: "too-many-redirects"
        case .insecureRedirect: "insecure-redirect"
        case .conversionFailed: "conversion"
        }
    }
}
