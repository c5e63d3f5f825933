import Foundation
import PixpipeLocking

/// Collects the body for ``CurlTransport`` and reports progress after each chunk, like the URLSession transport.
///
/// The engine enforces the body cap before calling it, so the buffer never grows past the cap.
final class CurlTransportSink: CurlTransferSink {
    private struct State {
        var body = Data()
        var expectedLength: Int?
    }

    // Written on the engine thread during the transfer, read by the caller after it resumed.
    private let state = Locked(State())
    private let progress: @Sendable (TransferProgress) -> Void

    /// A sink that calls `progress` (on the engine thread) as body bytes arrive.
    init(progress: @escaping @Sendable (TransferProgress) -> Void) {
        self.progress = progress
    }

    /// The body received.
    var body: Data { state.withLock { $0.body } }

    func receiveHead(_ head: CurlResponseHead) -> Bool {
        state.withLock { state in
            state.expectedLength = head.contentLength.flatMap { Int(exactly: $0) }
            // Bounded: a declared length over the cap was refused before this call.
            if let length = state.expectedLength, !head.hasContentEncoding { state.body.reserveCapacity(length) }
        }
        return true
    }

    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        let update = state.withLock { state in
            state.body.append(contentsOf: chunk)
            return TransferProgress(bytesReceived: state.body.count, bytesExpected: state.expectedLength)
        }
        // Outside the lock: the handler is the caller's code.
        progress(update)
        return true
    }
}
