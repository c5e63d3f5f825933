#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe that becomes readable, and stays readable, once ``fire()`` is called.
///
/// Every `poll` in the server also watches ``readDescriptor``; because the byte written is never read,
/// one `fire()` wakes every waiting thread at once and any later wait returns immediately.
struct StopSignal: Sendable {
    /// The end every poll loop watches.
    let readDescriptor: Int32
    /// The end ``fire()`` writes to.
    private let writeDescriptor: Int32

    /// Creates the pipe, both ends non-blocking.
    init() throws(TestServerError) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else {
            throw .socketSetupFailed(step: .createStopSignal, errorNumber: Posix.lastError)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        _ = Posix.makeNonBlocking(readDescriptor)
        _ = Posix.makeNonBlocking(writeDescriptor)
    }

    /// Signals stop to every present and future waiter.
    func fire() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Whether ``fire()`` has been called, without waiting.
    var isFired: Bool {
        var entries = [Posix.pollEntry(readDescriptor, Int32(POLLIN))]
        return Posix.poll(&entries, timeoutMilliseconds: 0) > 0
    }

    /// Closes both ends; only once no thread can poll the pipe any more.
    func close() {
        Posix.closeDescriptor(readDescriptor)
        Posix.closeDescriptor(writeDescriptor)
    }
}
