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
    /// This observer as a ``ResponseHeadInspector`` when it is one, else `nil` (the default): transports
    /// ask this instead of casting, so observers that inspect nothing cost no type check per request.
    var headInspector: (any ResponseHeadInspector)? { get }
}

extension ResponseBodyObserver {
    /// Not an inspector.
    public var headInspector: (any ResponseHeadInspector)? { nil }
}

/// A body observer that first sees the final response's head and may refuse its body: the transfer then
/// stops before the body is read, and the request fails with ``HTTPError/cancelled(url:)``.
///
/// ```swift
/// final class NoLargeBodies: ResponseHeadInspector {
///     func acceptsBody(of head: ResponseMetadata) -> Bool { head.headers["Content-Length"] != "999999" }
///     func begin() {}
///     func observe(_ chunk: UnsafeRawBufferPointer) {}
/// }
/// ```
///
/// A streaming transport (``CurlTransport``) asks as the head arrives, on its own thread, so no body byte
/// is read after a refusal; others ask once the transfer ended, before showing the body. The inspector
/// keeps what it decided: the caller reads it there to tell a refusal from a cancellation.
public protocol ResponseHeadInspector: ResponseBodyObserver {
    /// Whether the body of the response with `head` (status, headers, final URL) is wanted.
    func acceptsBody(of head: ResponseMetadata) -> Bool
}

extension ResponseHeadInspector {
    /// Itself.
    public var headInspector: (any ResponseHeadInspector)? { self }
}
