#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ports on 127.0.0.1 for a server that runs in another process and binds them itself.
enum LoopbackPort {
    /// A port that was free a moment ago: bound with port 0, read back, closed.
    ///
    /// Another process may take it before nginx binds it; the fixture retries on that rare clash.
    static func reserve() throws(NginxFixtureError) -> Int {
        let socket: ListeningSocket
        do {
            socket = try ListeningSocket(backlog: 1)
        } catch {
            switch error {
            case .socketSetupFailed(let step, let errorNumber):
                throw .portReservationFailed(step: step.rawValue, errorNumber: errorNumber)
            }
        }
        Posix.closeDescriptor(socket.descriptor)
        return socket.port
    }

    /// Whether something accepts TCP connections on 127.0.0.1 at `port` (connects, then closes at once).
    static func acceptsConnections(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Posix.streamSocketType, 0)
        guard descriptor >= 0 else { return false }
        defer { Posix.closeDescriptor(descriptor) }
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        // Blocking is fine: on loopback, connect is answered at once (accepted or refused).
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return connected == 0
    }
}
