#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX calls whose spelling differs between Glibc and Darwin, in one place.
///
/// Every socket the server owns is non-blocking and waited on with `poll`, so no thread ever sits in a
/// system call that `stop()` cannot interrupt.
enum Posix {
    /// `SOCK_STREAM` as the `Int32` that `socket()` takes (Glibc imports it as an enum).
    static var streamSocketType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// Flags for every `send`: never block, and on Linux never raise SIGPIPE when the peer has gone.
    /// Darwin has no `MSG_NOSIGNAL`; `SO_NOSIGPIPE` set by ``configureAccepted(_:)`` covers it there.
    static var sendFlags: Int32 {
        #if canImport(Glibc)
        Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
        #else
        MSG_DONTWAIT
        #endif
    }

    /// The calling thread's `errno`.
    static var lastError: Int32 { errno }

    /// Whether `code` only means "try again" rather than a broken connection.
    static func isTransient(_ code: Int32) -> Bool {
        code == EAGAIN || code == EWOULDBLOCK || code == EINTR
    }

    /// Closes a descriptor, ignoring the result: there is nothing useful to do when `close` fails.
    static func closeDescriptor(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    /// Stops further sends on a socket so the peer sees end-of-stream while we may still read.
    static func shutdownWriting(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.shutdown(descriptor, Int32(SHUT_WR))
        #else
        _ = Darwin.shutdown(descriptor, SHUT_WR)
        #endif
    }

    /// Puts a descriptor in non-blocking mode; returns false when `fcntl` fails.
    static func makeNonBlocking(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0 else { return false }
        return fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0
    }

    /// Sets an `Int32` socket option, ignoring failure (all options we set are optimisations or best effort).
    static func setOption(_ descriptor: Int32, level: Int32, name: Int32, value: Int32) {
        var value = value
        _ = setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Prepares an accepted connection: non-blocking, no Nagle delay, and no SIGPIPE on Darwin.
    static func configureAccepted(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        setOption(descriptor, level: SOL_SOCKET, name: SO_NOSIGPIPE, value: 1)
        #endif
        setOption(descriptor, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
        return makeNonBlocking(descriptor)
    }

    /// Makes the next `close` abort the connection with a TCP RST instead of a FIN (`SO_LINGER` 0).
    static func setResetOnClose(_ descriptor: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// `poll` over `descriptors`; an interrupted call counts as "nothing ready".
    static func poll(_ descriptors: inout [pollfd], timeoutMilliseconds: Int32) -> Int32 {
        #if canImport(Glibc)
        let result = Glibc.poll(&descriptors, nfds_t(descriptors.count), timeoutMilliseconds)
        #else
        let result = Darwin.poll(&descriptors, nfds_t(descriptors.count), timeoutMilliseconds)
        #endif
        return result < 0 ? 0 : result
    }

    /// A `pollfd` waiting for `events` on `descriptor`.
    static func pollEntry(_ descriptor: Int32, _ events: Int32) -> pollfd {
        pollfd(fd: descriptor, events: Int16(events), revents: 0)
    }

    /// One non-blocking `send`; returns the byte count or -1 with `errno` set.
    static func sendSome(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        #if canImport(Glibc)
        return Glibc.send(descriptor, base, bytes.count, sendFlags)
        #else
        return Darwin.send(descriptor, base, bytes.count, sendFlags)
        #endif
    }

    /// One `recv` into `buffer`; returns the byte count, 0 at end-of-stream, or -1 with `errno` set.
    static func receiveSome(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer, flags: Int32 = 0) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        #if canImport(Glibc)
        return Glibc.recv(descriptor, base, buffer.count, flags | Int32(MSG_DONTWAIT))
        #else
        return Darwin.recv(descriptor, base, buffer.count, flags | MSG_DONTWAIT)
        #endif
    }

    /// `MSG_PEEK` as an `Int32`.
    static var peekFlag: Int32 { Int32(MSG_PEEK) }
}
