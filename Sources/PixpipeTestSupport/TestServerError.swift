#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a ``TestHTTPServer`` could not start.
public enum TestServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call needed to set up the listening socket failed with `errorNumber` (`errno`).
    case socketSetupFailed(step: SetupStep, errorNumber: Int32)

    /// The setup system call that failed.
    public enum SetupStep: String, Sendable, Hashable {
        /// `socket()` for the listening socket.
        case createSocket = "socket"
        /// `bind()` to 127.0.0.1 with port 0.
        case bind
        /// `listen()`.
        case listen
        /// `getsockname()` to read back the port the kernel chose.
        case readBoundAddress = "getsockname"
        /// `fcntl()` to make the listening socket non-blocking.
        case makeNonBlocking = "fcntl"
        /// `pipe()` for the stop signal.
        case createStopSignal = "pipe"
    }

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .socketSetupFailed(let step, let errorNumber):
            "test server setup failed in \(step.rawValue)(): \(String(cString: strerror(errorNumber))) (errno \(errorNumber))"
        }
    }
}
