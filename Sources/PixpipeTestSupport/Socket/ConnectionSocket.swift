#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One accepted, non-blocking connection whose every wait also watches the server's ``StopSignal``.
///
/// Waiting with `poll` on both the socket and the stop pipe is what lets `stop()` end a slow
/// response (a delay, a trickle, an endless stream) promptly, and lets a vanished client end it too.
struct ConnectionSocket: Sendable {
    /// What a receive produced.
    enum ReceiveResult: Equatable {
        /// Bytes arrived.
        case bytes([UInt8])
        /// The peer closed or reset the connection.
        case peerClosed
        /// The server is stopping.
        case stopped
    }

    /// How a send or a pause ended.
    enum TransferResult: Equatable {
        /// Everything was sent, or the pause ran its full length.
        case finished
        /// The peer closed or reset the connection.
        case peerClosed
        /// The server is stopping.
        case stopped
    }

    private enum Readiness { case ready, stopped, timedOut }

    /// The connection's descriptor.
    let descriptor: Int32
    /// Fired by `stop()`.
    let stopSignal: StopSignal

    private func wait(for events: Int32, timeoutMilliseconds: Int32) -> Readiness {
        var entries = [
            Posix.pollEntry(descriptor, events), Posix.pollEntry(stopSignal.readDescriptor, Int32(POLLIN)),
        ]
        let ready = Posix.poll(&entries, timeoutMilliseconds: timeoutMilliseconds)
        if entries[1].revents != 0 { return .stopped }
        // POLLHUP and POLLERR count as ready too: the next recv or send reports what happened.
        return ready > 0 && entries[0].revents != 0 ? .ready : .timedOut
    }

    /// Waits for and returns the next bytes from the peer (at most `maxBytes`).
    func receive(maxBytes: Int = 64 * 1024) -> ReceiveResult {
        var buffer = [UInt8](repeating: 0, count: maxBytes)
        while true {
            switch wait(for: Int32(POLLIN), timeoutMilliseconds: -1) {
            case .stopped: return .stopped
            case .timedOut: continue
            case .ready: break
            }
            let count = buffer.withUnsafeMutableBytes { Posix.receiveSome(descriptor, $0) }
            if count > 0 { return .bytes(Array(buffer[0..<count])) }
            if count < 0 && Posix.isTransient(Posix.lastError) { continue }
            return .peerClosed
        }
    }

    /// Sends all of `bytes`, waiting whenever the peer's window is full.
    func send(_ bytes: [UInt8]) -> TransferResult {
        var offset = 0
        while offset < bytes.count {
            switch wait(for: Int32(POLLOUT), timeoutMilliseconds: -1) {
            case .stopped: return .stopped
            case .timedOut: continue
            case .ready: break
            }
            let sent = bytes.withUnsafeBytes { Posix.sendSome(descriptor, UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && Posix.isTransient(Posix.lastError) {
                continue
            } else {
                return stopSignal.isFired ? .stopped : .peerClosed
            }
        }
        return .finished
    }

    /// Sends the UTF-8 bytes of `text`.
    func send(_ text: String) -> TransferResult {
        send(Array(text.utf8))
    }

    /// Waits `seconds` unless the server stops or the peer goes away first.
    ///
    /// Bytes the peer sends meanwhile (a pipelined request) are left unread for the next parse.
    func pause(seconds: Double) -> TransferResult {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, seconds) * 1000))
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return .finished }
            // Short slices so a vanished peer is noticed even while its pipelined bytes keep the socket readable.
            let slice = Int32(min(20, max(1, (remaining / .milliseconds(1)).rounded(.up))))
            switch wait(for: Int32(POLLIN), timeoutMilliseconds: slice) {
            case .stopped: return .stopped
            case .timedOut: continue
            case .ready:
                if peerHasClosed() { return .peerClosed }
                // Pending request bytes keep the socket readable; sleep the slice on the stop pipe alone.
                var entries = [Posix.pollEntry(stopSignal.readDescriptor, Int32(POLLIN))]
                if Posix.poll(&entries, timeoutMilliseconds: slice) > 0 { return .stopped }
            }
        }
    }

    /// Whether the peer has closed or reset the connection, judged without consuming any byte.
    private func peerHasClosed() -> Bool {
        var byte: UInt8 = 0
        let count = withUnsafeMutableBytes(of: &byte) { Posix.receiveSome(descriptor, $0, flags: Posix.peekFlag) }
        if count > 0 { return false }
        return count == 0 || !Posix.isTransient(Posix.lastError)
    }

    /// Closes after letting the peer read everything: half-close, drain briefly, then close.
    ///
    /// Closing with unread request bytes in the kernel buffer would send an RST that can destroy the
    /// response before the client reads it (for example a 431 sent while the client is still sending).
    func closeGracefully() {
        Posix.shutdownWriting(descriptor)
        let deadline = ContinuousClock.now + .milliseconds(500)
        var drained = 0
        while ContinuousClock.now < deadline && drained < 4 * 1024 * 1024 {
            guard wait(for: Int32(POLLIN), timeoutMilliseconds: 50) == .ready else { break }
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            let count = buffer.withUnsafeMutableBytes { Posix.receiveSome(descriptor, $0) }
            if count > 0 {
                drained += count
            } else if count == 0 || !Posix.isTransient(Posix.lastError) {
                break
            }
        }
        Posix.closeDescriptor(descriptor)
    }

    /// Aborts the connection with a TCP RST.
    func closeWithReset() {
        Posix.setResetOnClose(descriptor)
        Posix.closeDescriptor(descriptor)
    }
}
