#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A non-blocking TCP socket listening on 127.0.0.1 at a port the kernel chose.
struct ListeningSocket: Sendable {
    /// The listening descriptor; the accept thread closes it when it exits.
    let descriptor: Int32
    /// The port read back with `getsockname` after binding to port 0.
    let port: Int

    /// Binds 127.0.0.1 port 0, listens, and reads back the chosen port.
    init(backlog: Int32 = 128) throws(TestServerError) {
        let descriptor = socket(AF_INET, Posix.streamSocketType, 0)
        guard descriptor >= 0 else { throw .socketSetupFailed(step: .createSocket, errorNumber: Posix.lastError) }
        do {
            port = try Self.bindLoopback(descriptor, backlog: backlog)
        } catch {
            Posix.closeDescriptor(descriptor)
            throw error
        }
        self.descriptor = descriptor
    }

    private static func bindLoopback(_ descriptor: Int32, backlog: Int32) throws(TestServerError) -> Int {
        Posix.setOption(descriptor, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
        let addressLength = socklen_t(MemoryLayout<sockaddr_in>.size)
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, addressLength) }
        }
        guard bound == 0 else { throw .socketSetupFailed(step: .bind, errorNumber: Posix.lastError) }
        guard listen(descriptor, backlog) == 0 else {
            throw .socketSetupFailed(step: .listen, errorNumber: Posix.lastError)
        }
        var chosen = sockaddr_in()
        var chosenLength = addressLength
        let named = withUnsafeMutablePointer(to: &chosen) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &chosenLength) }
        }
        guard named == 0 else { throw .socketSetupFailed(step: .readBoundAddress, errorNumber: Posix.lastError) }
        // Non-blocking so a connection that vanishes between poll and accept cannot block the accept thread.
        guard Posix.makeNonBlocking(descriptor) else {
            throw .socketSetupFailed(step: .makeNonBlocking, errorNumber: Posix.lastError)
        }
        return Int(UInt16(bigEndian: chosen.sin_port))
    }

    /// Accepts one pending connection, or returns nil when none is ready (or it vanished).
    func acceptConnection() -> Int32? {
        let accepted = accept(descriptor, nil, nil)
        return accepted >= 0 ? accepted : nil
    }
}
