/// Bytes received so far for one transfer, and how many are expected when the server said.
public struct TransferProgress: Sendable, Hashable {
    /// Body bytes received so far.
    public var bytesReceived: Int
    /// The body size from `Content-Length`, or `nil` when unknown (for example a chunked body).
    public var bytesExpected: Int?

    /// Progress from its parts.
    public init(bytesReceived: Int, bytesExpected: Int?) {
        self.bytesReceived = bytesReceived
        self.bytesExpected = bytesExpected
    }

    /// The fraction received, 0...1, or `nil` when the size is unknown.
    public var fractionCompleted: Double? {
        guard let bytesExpected, bytesExpected > 0 else { return nil }
        return min(1, Double(bytesReceived) / Double(bytesExpected))
    }
}
