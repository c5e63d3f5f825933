import Dispatch
import PixpipeHTTP
import PixpipeImage
import PixpipeLocking

/// Watches one download's body as it arrives and makes previews of a progressive JPEG from it, handing
/// each to `deliver`.
///
/// Throttled twice: a preview is attempted only after `byteInterval` more bytes arrived, and only when no
/// preview decode is running (a chunk that arrives meanwhile is kept, its attempt dropped, never queued);
/// the decoder itself decodes only when a scan has completed since its last preview. Decodes run on
/// Dispatch's global queue, never on the transport's thread. ``close()`` waits for a running decode, so no
/// preview is delivered after the download has ended (and thus none after the final image).
final class ProgressivePreviewObserver: ResponseBodyObserver {
    private struct State {
        /// The body so far (of the current attempt).
        var bytes: [UInt8] = []
        /// Body length at the last preview attempt.
        var attemptedAt = 0
        /// The decoder, taken out while a decode runs.
        var decoder: ProgressiveJPEGPreviewDecoder?
        /// Whether a preview decode is running.
        var isDecoding = false
        /// No more previews: the body is not a progressive JPEG, it was damaged, or the download ended.
        var isStopped = false
        /// Bumped by ``begin()``, so a decode of an abandoned attempt's bytes delivers nothing.
        var attempt = 0
        /// Who waits in ``close()`` for the running decode.
        var closeWaiter: CheckedContinuation<Void, Never>?
    }

    private let state: Locked<State>
    private let byteInterval: Int
    private let makeDecoder: @Sendable () -> ProgressiveJPEGPreviewDecoder
    private let deliver: @Sendable (Image) -> Void

    /// An observer making previews with decoders from `makeDecoder`, every `byteInterval` bytes at most.
    init(
        byteInterval: Int, makeDecoder: @escaping @Sendable () -> ProgressiveJPEGPreviewDecoder,
        deliver: @escaping @Sendable (Image) -> Void
    ) {
        self.byteInterval = max(1, byteInterval)
        self.makeDecoder = makeDecoder
        self.deliver = deliver
        state = Locked(State(decoder: makeDecoder()))
    }

    func begin() {
        let decoder = makeDecoder()
        state.withLock { state in
            state.bytes = []
            state.attemptedAt = 0
            state.attempt += 1
            if !state.isDecoding { state.decoder = decoder }
        }
    }

    func observe(_ chunk: UnsafeRawBufferPointer) {
        let work = state.withLock { state -> (ProgressiveJPEGPreviewDecoder, [UInt8], Int)? in
            guard !state.isStopped else { return nil }
            state.bytes.append(contentsOf: chunk)
            guard !state.isDecoding, state.bytes.count - state.attemptedAt >= byteInterval,
                let decoder = state.decoder
            else { return nil }
            state.attemptedAt = state.bytes.count
            state.isDecoding = true
            state.decoder = nil
            return (decoder, state.bytes, state.attempt)
        }
        guard let (decoder, bytes, attempt) = work else { return }
        DispatchQueue.global().async { self.decode(decoder, bytes, attempt: attempt) }
    }

    /// Runs one preview decode, delivers its image, and wakes ``close()`` if it waits.
    private func decode(_ decoder: ProgressiveJPEGPreviewDecoder, _ bytes: [UInt8], attempt: Int) {
        var decoder = decoder
        var preview: Image?
        var failed = false
        do {
            preview = try decoder.preview(for: bytes)
        } catch {
            // A damaged prefix ends the previews; the final decode reports the damage, if it is real.
            failed = true
        }
        let current = state.withLock { state -> Bool in
            let current = state.attempt == attempt && !state.isStopped
            if failed || decoder.givesNoPreviews { state.isStopped = true }
            if state.decoder == nil, state.attempt == attempt { state.decoder = decoder }
            if state.decoder == nil { state.decoder = makeDecoder() }
            return current
        }
        // Outside the lock: delivery runs the callers' code. `close()` waits until this has returned.
        if current, let preview { deliver(preview) }
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isDecoding = false
            defer { state.closeWaiter = nil }
            return state.closeWaiter
        }
        waiter?.resume()
    }

    /// Stops previews and returns once no preview decode runs any more.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let running = state.withLock { state -> Bool in
                state.isStopped = true
                state.bytes = []
                guard state.isDecoding else { return false }
                state.closeWaiter = continuation
                return true
            }
            if !running { continuation.resume() }
        }
    }
}
