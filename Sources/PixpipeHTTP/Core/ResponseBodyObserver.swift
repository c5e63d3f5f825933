/// Sees a response body chunk by chunk as it arrives, for work that would otherwise be a second pass over
/// the bytes (a digest, a checksum, a byte count).
///
/// ```swift
/// var request = Request<Data>(url: url)
/// request.bodyObserver = digester   // a class conforming to ResponseBodyObserver
/// let body = try await client.send(request)
/// // digester has now seen exactly `body`
/// ```
///
/// ``begin()`` comes before each body a transport receives (each attempt; redirect bodies are never
/// shown), then ``observe(_:)`` for each of its chunks in order, so when the request returns the observer
/// has seen exactly the returned body. A transport that streams (``CurlTransport``) calls it on its own
/// thread as chunks arrive: keep the work small, it holds up every other transfer. Others call it once with
/// the whole body when the transfer ends (see ``HTTPTransport/perform(_:observing:progress:)``).
public protocol ResponseBodyObserver: AnyObject, Sendable {
    /// A new body starts; whatever was seen before belongs to an attempt that did not count.
    func begin()
    /// The next chunk of the body; the buffer is valid only during the call.
    func observe(_ chunk: UnsafeRawBufferPointer)
}
