#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking TCP client that speaks HTTP/1.1 byte by byte, so tests see exactly what the server sends.
final class RawSocketClient {
    /// What went wrong talking to the server.
    enum ClientError: Error, Equatable {
        case socketFailed(errorNumber: Int32)
        case connectFailed(errorNumber: Int32)
        case sendFailed(errorNumber: Int32)
        case receiveFailed(errorNumber: Int32)
        case closedBeforeResponseEnded(receivedBodyBytes: Int)
        case malformedResponse(String)
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var isClosed = false

    /// Connects to 127.0.0.1:`port`; every receive gives up after `timeout` seconds so no test can hang.
    init(port: Int, timeout: Int = 5) throws(ClientError) {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw .socketFailed(errorNumber: errno) }
        var receiveTimeout = timeval(tv_sec: timeout, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &receiveTimeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
            var one: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close()
            throw .connectFailed(errorNumber: code)
        }
    }

    deinit {
        close()
    }

    /// Closes the connection (once).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }

    /// A GET (or other method) request for `path` with optional extra header lines.
    static func request(_ path: String, method: String = "GET", headers: [String] = [], body: String = "") -> String {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1"] + headers
        if !body.isEmpty { lines.append("Content-Length: \(body.utf8.count)") }
        return lines.joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    /// Sends all of `text`.
    func send(_ text: String) throws(ClientError) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
                let sent = bytes[offset...].withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
            #else
                let sent = bytes[offset...].withUnsafeBytes { Darwin.send(descriptor, $0.baseAddress, $0.count, 0) }
            #endif
            guard sent > 0 else { throw .sendFailed(errorNumber: errno) }
            offset += sent
        }
    }

    /// The next bytes from the server, buffered ones first; empty at end-of-stream.
    func receiveSome() throws(ClientError) -> [UInt8] {
        if !buffer.isEmpty {
            defer { buffer = [] }
            return buffer
        }
        return try receiveFromSocket()
    }

    private func receiveFromSocket() throws(ClientError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw .receiveFailed(errorNumber: errno) }
        return Array(chunk[0..<count])
    }

    /// At least `count` bytes (head included); throws if the server closes first.
    func receive(atLeast count: Int) throws(ClientError) -> [UInt8] {
        var all: [UInt8] = []
        while all.count < count {
            let bytes = try receiveSome()
            guard !bytes.isEmpty else { throw .closedBeforeResponseEnded(receivedBodyBytes: all.count) }
            all += bytes
        }
        return all
    }

    /// Everything until the server closes the connection.
    func receiveUntilClose() throws(ClientError) -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let bytes = try receiveSome()
            if bytes.isEmpty { return all }
            all += bytes
        }
    }

    /// Reads exactly one response: head, then a body framed by Content-Length, chunking, or the close.
    func readResponse(forHead: Bool = false) throws(ClientError) -> RawResponse {
        let head = try readHead()
        var response = try RawResponse(head: head)
        if forHead { return response }
        if response.header("transfer-encoding") == "chunked" {
            response.body = try readChunkedBody()
        } else if let lengthText = response.header("content-length") {
            guard let length = Int(lengthText) else { throw .malformedResponse("Content-Length \(lengthText)") }
            response.body = try readExactly(length)
        } else {
            response.body = try receiveUntilClose()
        }
        return response
    }

    private func fill() throws(ClientError) -> Bool {
        let bytes = try receiveFromSocket()
        buffer += bytes
        return !bytes.isEmpty
    }

    private func readHead() throws(ClientError) -> [UInt8] {
        while true {
            if let end = buffer.firstRange(of: [13, 10, 13, 10]) {
                defer { buffer.removeSubrange(..<end.upperBound) }
                return Array(buffer[..<end.lowerBound])
            }
            guard try fill() else { throw .closedBeforeResponseEnded(receivedBodyBytes: 0) }
        }
    }

    private func readLine() throws(ClientError) -> String {
        while true {
            if let end = buffer.firstRange(of: [13, 10]) {
                defer { buffer.removeSubrange(..<end.upperBound) }
                return String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
            }
            guard try fill() else { throw .malformedResponse("connection closed inside a chunk size line") }
        }
    }

    private func readExactly(_ count: Int) throws(ClientError) -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw .closedBeforeResponseEnded(receivedBodyBytes: buffer.count) }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    private func readChunkedBody() throws(ClientError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let sizeLine = try readLine()
            guard let size = Int(sizeLine, radix: 16) else { throw .malformedResponse("chunk size \(sizeLine)") }
            if size == 0 {
                guard try readLine().isEmpty else { throw .malformedResponse("trailers after the last chunk") }
                return body
            }
            body += try readExactly(size)
            guard try readLine().isEmpty else { throw .malformedResponse("chunk not followed by CRLF") }
        }
    }
}
