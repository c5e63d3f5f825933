/// Receives a transfer's response as it streams, on the engine thread.
///
/// Calls happen in order: one `receiveHead`, then zero or more `receiveBody`. Both must return
/// quickly (they hold up every other transfer of the engine); returning `false` stops the transfer,
/// which then fails with ``CurlTransferError/cancelled``.
protocol CurlResponseSink: Sendable {
    /// The final response's status and headers, before any body byte.
    func receiveHead(_ head: CurlResponseHead) -> Bool
    /// The next chunk of the (decoded) body; the buffer is only valid during the call.
    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Bool
}
