import Testing

/// Every suite of this target that talks to a ``TestHTTPServer``, run one test at a time, as the HTTP tests
/// run theirs: URLSession on Linux funnels all sessions through one work queue, so transfers running beside
/// each other would blur each other's timing.
@Suite(.serialized) enum SocketTests {}
