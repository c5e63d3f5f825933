import Testing

/// Every suite that talks to a ``TestHTTPServer``, run one test at a time.
///
/// URLSession on Linux funnels all sessions through one work queue with no back-pressure: a body streaming
/// at loopback speed delays every other transfer, which would blur the timing assertions (sub-second
/// timeouts, queueing) of tests running beside it. Serial, the whole set still takes a few seconds.
@Suite(.serialized) enum SocketTests {}
