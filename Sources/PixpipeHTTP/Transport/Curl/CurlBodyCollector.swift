import Foundation
import PixpipeLocking

/// A sink that keeps the whole body in memory; the engine's body cap bounds how much that can be.
final class CurlBodyCollector: CurlResponseSink {
    // The engine thread appends while the transfer runs; the caller reads after the transfer's
    // continuation resumed. The mutex makes that hand-over explicit and costs nothing uncontended.
    private let storage = Locked<(head: CurlResponseHead?, body: Data)>((nil, Data()))

    /// An empty collector.
    init() {}

    /// The body received so far.
    var body: Data { storage.withLock { $0.body } }

    /// The head received, if any.
    var head: CurlResponseHead? { storage.withLock { $0.head } }

    func receiveHead(_ head: CurlResponseHead) -> Bool {
        storage.withLock { state in
            state.head = head
            // Content-Length was checked against the cap already, so reserving it is bounded.
            if let length = head.contentLength, length > 0, length <= Int64(Int.max) {
                state.body.reserveCapacity(Int(length))
            }
        }
        return true
    }

    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        storage.withLock { $0.body.append(contentsOf: chunk) }
        return true
    }
}
