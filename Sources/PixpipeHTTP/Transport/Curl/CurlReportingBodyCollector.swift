import Foundation
import PixpipeLocking

/// Collects the body for ``CurlTransport`` as ``CurlBodyCollector`` does, shows each chunk to the request's body
/// observer, and reports progress after each chunk, like the URLSession transport (only when someone listens: building
/// and delivering a progress value per chunk showed in profiles of many small files).
///
/// The engine enforces the body cap before calling it, so the buffer never grows past the cap.
final class CurlReportingBodyCollector: CurlResponseSink {
    private struct State {
        var body = Data()
        var expectedLength: Int?
    }

    // Written on the engine thread during the transfer, read by the caller after it resumed.
    private let state = Locked(State())
    private let progress: (@Sendable (TransferProgress) -> Void)?
    private let observer: (any ResponseBodyObserver)?
    /// The observer when it also inspects heads.
    private let inspector: (any ResponseHeadInspector)?
    /// The request's URL, for the head shown to ``inspector`` (the final URL is not known on the engine thread).
    private let url: URL?

    /// A sink that shows chunks to `observer` and calls `progress` (both on the engine thread) as body bytes
    /// arrive.
    init(
        progress: (@Sendable (TransferProgress) -> Void)?, observer: (any ResponseBodyObserver)? = nil, url: URL? = nil
    ) {
        self.progress = progress
        self.observer = observer
        self.inspector = observer?.headInspector
        self.url = url
    }

    /// The body received.
    var body: Data { state.withLock { $0.body } }

    func receiveHead(_ head: CurlResponseHead) -> Bool {
        if let inspector, let url {
            let metadata = ResponseMetadata(
                statusCode: head.statusCode, headers: head.httpHeaders, url: url, httpVersion: head.httpVersion)
            // Refused: the engine stops the transfer before any body byte is read.
            guard inspector.acceptsBody(of: metadata) else { return false }
        }
        state.withLock { state in
            state.expectedLength = head.contentLength.flatMap { Int(exactly: $0) }
            // Bounded: a declared length over the cap was refused before this call.
            if let length = state.expectedLength, !head.hasContentEncoding { state.body.reserveCapacity(length) }
        }
        observer?.begin()
        return true
    }

    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        let update = state.withLock { state in
            state.body.append(contentsOf: chunk)
            return TransferProgress(bytesReceived: state.body.count, bytesExpected: state.expectedLength)
        }
        // Outside the lock: the observer and the handler are the caller's code.
        observer?.observe(chunk)
        progress?(update)
        return true
    }
}
