internal import CLibCurl
internal import CPixpipeHTTP
import Foundation

/// One libcurl easy handle with its error buffer and request header list, reused across transfers on the
/// engine thread.
///
/// Options persist from one transfer to the next; a request whose ``CurlOptionProfile`` matches the
/// previous one only changes the URL and the callbacks' user pointer. Otherwise `curl_easy_reset` clears
/// every option (keeping the handle's DNS and TLS session caches; connections live in the multi handle)
/// and all are set again.
final class CurlEasyHandle {
    /// The `CURL *`.
    let raw: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// The request header list libcurl reads during transfers; freed when the options are reset.
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// What the current options were set for; nil after a reset or a request with a body or range.
    private var profile: CurlOptionProfile?

    /// A new easy handle, or nil when libcurl cannot allocate one.
    init?() {
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
        errorBuffer = .allocate(capacity: Int(pxp_curl_error_size))
        errorBuffer.initialize(repeating: 0, count: Int(pxp_curl_error_size))
    }

    /// Frees the handle; it must not be in a multi handle.
    func destroy() {
        curl_easy_cleanup(raw)
        curl_slist_free_all(headerList)
        headerList = nil
        errorBuffer.deallocate()
    }

    /// Readies the handle for another transfer once it left the multi handle; the options stay.
    func transferEnded() {
        errorBuffer[0] = 0
    }

    /// Clears every option, and frees the header list libcurl no longer points at.
    private func resetOptions() {
        curl_easy_reset(raw)
        curl_slist_free_all(headerList)
        headerList = nil
        profile = nil
    }

    /// The message libcurl wrote for the last failure, if any.
    var errorMessage: String { String(cString: errorBuffer) }

    /// Time from the start of the last transfer until its connection was made (name lookup included);
    /// zero when no connection was made. libcurl reports it in microseconds (`CURLINFO_CONNECT_TIME_T`).
    var connectTime: Duration {
        var microseconds: curl_off_t = 0
        _ = pxp_curl_easy_getinfo_off_t(raw, CURLINFO_CONNECT_TIME_T, &microseconds)
        return .microseconds(Int64(microseconds))
    }

    /// The URL of the last request made, after redirects.
    var effectiveURL: URL? {
        var text: UnsafePointer<CChar>?
        guard pxp_curl_easy_getinfo_string(raw, CURLINFO_EFFECTIVE_URL, &text) == CURLE_OK, let text else { return nil }
        return URL(string: String(cString: text))
    }

    /// libcurl's resolution of the last response's Location against its URL (`CURLINFO_REDIRECT_URL`), the
    /// URL it would have fetched next; `nil` without one. Set once the response has ended.
    var redirectURL: String? {
        var text: UnsafePointer<CChar>?
        guard pxp_curl_easy_getinfo_string(raw, CURLINFO_REDIRECT_URL, &text) == CURLE_OK, let text else { return nil }
        return String(cString: text)
    }

    /// The size in bytes of the receive buffer libcurl reads into, per handle (`CURLOPT_BUFFERSIZE`).
    static let receiveBufferBytes = 32 * 1024

    /// Sets every option a transfer needs; `context` is the pointer the callbacks receive.
    func configure(
        for request: CurlTransferRequest,
        context: UnsafeMutableRawPointer,
        socketContext: UnsafeMutableRawPointer
    ) throws(CurlTransferError) {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidRequest(reason: "scheme of \(request.url.absoluteString) is not http or https")
        }
        let newProfile = CurlOptionProfile(request)
        if let newProfile, newProfile == profile {
            try check(setString(CURLOPT_URL, request.url.absoluteString))
            try setCallbackContext(context, reportsProgress: newProfile.reportsProgress)
            return
        }
        resetOptions()
        // Recorded only once every option is set: a failure below leaves no profile, so the next
        // request resets the handle again.
        try configureAll(for: request, scheme: scheme, context: context, socketContext: socketContext)
        profile = newProfile
    }

    private func configureAll(
        for request: CurlTransferRequest,
        scheme: String,
        context: UnsafeMutableRawPointer,
        socketContext: UnsafeMutableRawPointer
    ) throws(CurlTransferError) {
        try check(setString(CURLOPT_URL, request.url.absoluteString))
        try check(setString(CURLOPT_PROTOCOLS_STR, "http,https"))
        try check(setString(CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        try check(pxp_curl_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer))
        // No signals from a library running on a background thread (no SIGALRM for DNS timeouts).
        try check(pxp_curl_easy_setopt_long(raw, CURLOPT_NOSIGNAL, 1))
        // A 32 KiB receive buffer: libcurl's default 16 KiB took two or three reads and write callbacks
        // for a 30 KB image instead of one; the curl tool's 100 KiB kept 1.6 MB more at the peak of 32
        // transfers at once (each handle keeps its buffer) for the same CPU (docs/benchmarks.md).
        try check(pxp_curl_easy_setopt_long(raw, CURLOPT_BUFFERSIZE, Self.receiveBufferBytes))
        try check(pxp_curl_easy_setopt_long(raw, CURLOPT_HTTP_VERSION, pxp_curl_http_version_2tls))
        if scheme == "https" {
            // Wait for a connection that may multiplex rather than opening a second one to the same host.
            // Only over TLS, where ALPN settles the protocol at the handshake; on plain http libcurl
            // would hold every transfer until the first response arrives.
            try check(pxp_curl_easy_setopt_long(raw, CURLOPT_PIPEWAIT, 1))
        }
        try check(pxp_curl_easy_setopt_long(raw, CURLOPT_SSL_VERIFYPEER, 1))
        try check(pxp_curl_easy_setopt_long(raw, CURLOPT_SSL_VERIFYHOST, 2))
        if let caFile = request.caFile { try check(setString(CURLOPT_CAINFO, caFile)) }
        if let caPath = request.caPath { try check(setString(CURLOPT_CAPATH, caPath)) }
        // Credentials come only from the request's own headers, which the redirect policy filters per hop:
        // never from ~/.netrc, and never re-sent by libcurl to another host.
        try check(pxp_curl_easy_setopt_long(raw, CURLOPT_NETRC, pxp_curl_netrc_ignored))
        try check(pxp_curl_easy_setopt_long(raw, CURLOPT_UNRESTRICTED_AUTH, 0))
        try configureMethodAndBody(request)
        try configureHeaders(request)
        try configureLimits(request)
        try configureCallbacks(request, context: context, socketContext: socketContext)
    }

    private func configureMethodAndBody(_ request: CurlTransferRequest) throws(CurlTransferError) {
        switch request.method {
        case "GET": try check(pxp_curl_easy_setopt_long(raw, CURLOPT_HTTPGET, 1))
        case "HEAD": try check(pxp_curl_easy_setopt_long(raw, CURLOPT_NOBODY, 1))
        default:
            guard request.method.allSatisfy({ $0.isLetter || $0 == "-" }), !request.method.isEmpty else {
                throw .invalidRequest(reason: "method \(request.method) is not a token")
            }
            try check(setString(CURLOPT_CUSTOMREQUEST, request.method))
        }
        guard let body = request.body else { return }
        try check(pxp_curl_easy_setopt_off_t(raw, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
        // COPYPOSTFIELDS copies the bytes, so the Data need not outlive this call.
        let code = body.withUnsafeBytes { bytes in
            guard let start = bytes.baseAddress else {
                return "".withCString { pxp_curl_easy_setopt_pointer(raw, CURLOPT_COPYPOSTFIELDS, $0) }
            }
            return pxp_curl_easy_setopt_pointer(raw, CURLOPT_COPYPOSTFIELDS, start)
        }
        try check(code)
    }

    private func configureHeaders(_ request: CurlTransferRequest) throws(CurlTransferError) {
        // An empty "Expect:" stops libcurl from waiting for 100-continue before sending a body.
        var lines = ["Expect:"]
        for field in request.headers {
            // Bytes, not Characters: "\r\n" is one Character and would slip past a Character test.
            let forbidden: (UInt8) -> Bool = { $0 == 13 || $0 == 10 || $0 == 0 }
            guard !field.name.utf8.contains(where: forbidden), !field.value.utf8.contains(where: forbidden),
                !field.name.isEmpty
            else {
                throw .invalidRequest(reason: "header \(field.name.debugDescription) holds a line break or is empty")
            }
            // "Name;" is libcurl's spelling of a header with an empty value.
            lines.append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        for line in lines {
            guard let appended = curl_slist_append(headerList, line) else {
                throw .transport(
                    code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "cannot allocate header list", url: request.url)
            }
            headerList = appended
        }
        try check(pxp_curl_easy_setopt_pointer(raw, CURLOPT_HTTPHEADER, headerList))
        if let encodings = request.acceptedEncodings {
            try check(setString(CURLOPT_ACCEPT_ENCODING, encodings))
        }
        if let start = request.rangeStart {
            try check(setString(CURLOPT_RANGE, "\(max(0, start))-"))
        }
    }

    private func configureLimits(_ request: CurlTransferRequest) throws(CurlTransferError) {
        if let connect = request.connectTimeout {
            try check(pxp_curl_easy_setopt_long(raw, CURLOPT_CONNECTTIMEOUT_MS, connect.millisecondsRoundedUp))
        }
        if let total = request.totalTimeout {
            try check(pxp_curl_easy_setopt_long(raw, CURLOPT_TIMEOUT_MS, total.millisecondsRoundedUp))
        }
        // The idle timeout is enforced by the engine loop to the millisecond; libcurl's
        // LOW_SPEED_TIME counts whole seconds.
        // libcurl never follows a redirect itself (CURLOPT_FOLLOWLOCATION stays off): the engine follows each
        // hop as a new transfer on this handle, once the redirect policy allowed libcurl's resolution of it.
        // The body cap is enforced by the callbacks (Content-Length when headers end, then a running
        // count of decoded bytes); MAXFILESIZE would compare encoded lengths.
    }

    private func configureCallbacks(
        _ request: CurlTransferRequest,
        context: UnsafeMutableRawPointer,
        socketContext: UnsafeMutableRawPointer
    ) throws(CurlTransferError) {
        try check(pxp_curl_easy_setopt_write_function(raw, CURLOPT_WRITEFUNCTION, CurlCallbacks.write))
        try check(pxp_curl_easy_setopt_write_function(raw, CURLOPT_HEADERFUNCTION, CurlCallbacks.header))
        try check(pxp_curl_easy_setopt_opensocket_function(raw, CurlCallbacks.openSocket))
        try check(pxp_curl_easy_setopt_pointer(raw, CURLOPT_OPENSOCKETDATA, socketContext))
        try check(pxp_curl_easy_setopt_closesocket_function(raw, CurlCallbacks.closeSocket))
        try check(pxp_curl_easy_setopt_pointer(raw, CURLOPT_CLOSESOCKETDATA, socketContext))
        if request.progress != nil {
            try check(pxp_curl_easy_setopt_xferinfo_function(raw, CurlCallbacks.transferInfo))
            try check(pxp_curl_easy_setopt_long(raw, CURLOPT_NOPROGRESS, 0))
        }
        try setCallbackContext(context, reportsProgress: request.progress != nil)
    }

    /// Points the body, header and progress callbacks at this transfer's state.
    private func setCallbackContext(
        _ context: UnsafeMutableRawPointer, reportsProgress: Bool
    ) throws(CurlTransferError) {
        try check(pxp_curl_easy_setopt_pointer(raw, pxp_curlopt_writedata, context))
        try check(pxp_curl_easy_setopt_pointer(raw, pxp_curlopt_headerdata, context))
        if reportsProgress { try check(pxp_curl_easy_setopt_pointer(raw, pxp_curlopt_xferinfodata, context)) }
    }

    private func setString(_ option: CURLoption, _ value: String) -> CURLcode {
        // libcurl copies string options (since 7.17), so the temporary C string is enough.
        value.withCString { pxp_curl_easy_setopt_pointer(raw, option, $0) }
    }

    private func check(_ code: CURLcode) throws(CurlTransferError) {
        guard code != CURLE_OK else { return }
        throw .invalidRequest(reason: "libcurl refused an option: " + String(cString: curl_easy_strerror(code)))
    }
}
