/// Everything an easy handle's options depend on apart from the URL and the callbacks' user pointer.
///
/// A handle that served a request with the same profile keeps its options for the next one: only the URL
/// and the user pointer change. Resetting the handle and setting some 25 options again for every request
/// was a visible part of the engine thread's work per small file. Requests with a body or a range have
/// no profile: they always get a fresh set of options.
struct CurlOptionProfile: Equatable {
    var isHTTPS: Bool
    var method: String
    var headers: [CurlHeaderField]
    var acceptedEncodings: String?
    var connectTimeout: Duration?
    var totalTimeout: Duration?
    var maxRedirects: Int?
    var caFile: String?
    var caPath: String?
    var reportsProgress: Bool

    /// The profile of `request`, or nil when its options cannot be carried over to another request.
    init?(_ request: CurlTransferRequest) {
        guard request.body == nil, request.rangeStart == nil else { return nil }
        isHTTPS = request.url.scheme?.lowercased() == "https"
        method = request.method
        headers = request.headers
        acceptedEncodings = request.acceptedEncodings
        connectTimeout = request.connectTimeout
        totalTimeout = request.totalTimeout
        maxRedirects = request.maxRedirects
        caFile = request.caFile
        caPath = request.caPath
        reportsProgress = request.progress != nil
    }
}
