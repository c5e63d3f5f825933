import Dispatch
import Foundation
import PixpipeLocking

/// Catches SIGINT while a batch runs: the first one calls `onInterrupt` (a clean stop), a second one exits
/// at once with status 130. Cancelling restores the default action.
final class InterruptHandler {
    private let source: any DispatchSourceSignal

    /// Starts catching SIGINT.
    init(onInterrupt: @escaping @Sendable () -> Void) {
        // The signal must be ignored for the dispatch source to receive it instead of the process dying.
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let interrupts = InterruptCount()
        source.setEventHandler {
            let count = interrupts.count.withLock { count in
                count += 1
                return count
            }
            if count == 1 { onInterrupt() } else { exit(ExitStatus.interrupted.rawValue) }
        }
        source.resume()
    }

    /// Stops catching SIGINT.
    func cancel() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}

/// How many SIGINTs arrived, shared with the signal handler.
private final class InterruptCount: Sendable {
    /// The count.
    let count = Locked(0)
}
