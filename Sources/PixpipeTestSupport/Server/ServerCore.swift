import Dispatch
import Foundation
import PixpipeLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The running server: the listening socket, the accept thread, the connection threads and their shared state.
///
/// Separate from ``TestHTTPServer`` so the threads hold the core, not the public object: when a test drops
/// its server, `TestHTTPServer.deinit` runs and stops the core even while connections are open.
final class ServerCore: Sendable {
    /// The socket connections arrive on.
    let listener: ListeningSocket
    /// Fired once by ``stop()``; every thread's waits watch it.
    let stopSignal: StopSignal
    /// Routes, records and counters.
    let state = Locked(ServerState())
    /// Entered by the accept thread and by each connection thread; ``stop()`` waits for it to empty.
    private let workers = DispatchGroup()

    /// How long ``stop()`` waits for threads; only a `.handler` closure that blocks can take this long.
    private static let stopTimeout: DispatchTimeInterval = .seconds(5)

    /// Binds the listening socket; call ``start()`` to accept.
    init() throws(TestServerError) {
        stopSignal = try StopSignal()
        do {
            listener = try ListeningSocket()
        } catch {
            stopSignal.close()
            throw error
        }
    }

    /// Starts the accept thread.
    func start() {
        workers.enter()
        Thread.detachNewThread { [self] in
            acceptLoop()
            workers.leave()
        }
    }

    /// Stops accepting, ends every connection, and waits for all threads to finish. Idempotent.
    func stop() {
        let wasStopped = state.withLock { state in
            defer { state.isStopped = true }
            return state.isStopped
        }
        guard !wasStopped else { return }
        stopSignal.fire()
        // The pipe may only close once no thread can poll it; if a thread is stuck, leak two descriptors.
        if workers.wait(timeout: .now() + Self.stopTimeout) == .success {
            stopSignal.close()
        }
    }

    private func acceptLoop() {
        defer { Posix.closeDescriptor(listener.descriptor) }
        while true {
            var entries = [
                Posix.pollEntry(listener.descriptor, Int32(POLLIN)),
                Posix.pollEntry(stopSignal.readDescriptor, Int32(POLLIN)),
            ]
            _ = Posix.poll(&entries, timeoutMilliseconds: -1)
            if entries[1].revents != 0 { return }
            guard entries[0].revents != 0 else { continue }
            guard let descriptor = listener.acceptConnection() else {
                // Out of descriptors would make poll report ready forever; back off instead of spinning.
                let code = Posix.lastError
                if code == EMFILE || code == ENFILE { _ = stopSignalFired(withinMilliseconds: 10) }
                continue
            }
            _ = Posix.configureAccepted(descriptor)
            let accepted = state.withLock { state in
                guard !state.isStopped else { return false }
                state.connectionCount += 1
                return true
            }
            guard accepted else {
                Posix.closeDescriptor(descriptor)
                return
            }
            let connection = ConnectionHandler(
                socket: ConnectionSocket(descriptor: descriptor, stopSignal: stopSignal), core: self)
            workers.enter()
            Thread.detachNewThread { [self] in
                connection.run()
                workers.leave()
            }
        }
    }

    private func stopSignalFired(withinMilliseconds timeout: Int32) -> Bool {
        var entries = [Posix.pollEntry(stopSignal.readDescriptor, Int32(POLLIN))]
        return Posix.poll(&entries, timeoutMilliseconds: timeout) > 0
    }
}
