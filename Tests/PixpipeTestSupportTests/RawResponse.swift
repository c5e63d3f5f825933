/// One HTTP response as ``RawSocketClient`` read it.
struct RawResponse {
    let status: Int
    /// Header fields with lowercased names.
    let headers: [String: String]
    var body: [UInt8] = []

    init(head: [UInt8]) throws(RawSocketClient.ClientError) {
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else {
            throw .malformedResponse("status line \(lines.first ?? "")")
        }
        self.status = status
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw .malformedResponse("header line \(line)") }
            headers[line[..<colon].lowercased()] =
                String(line[line.index(after: colon)...]).trimmingPrefix(" ").description
        }
        self.headers = headers
    }

    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}
