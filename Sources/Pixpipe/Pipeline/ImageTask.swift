import Dispatch
import Foundation
import PixpipeHTTP
import PixpipeImage
import PixpipeLocking

/// One caller's load through an ``ImagePipeline``: await its image, change its priority, or cancel it.
///
/// ```swift
/// let task = pipeline.imageTask(with: ImageRequest(url: url, priority: .low))
/// task.priority = .veryHigh            // it scrolled into view: moves ahead while queued
/// let image = try await task.image
/// ```
///
/// Tasks for one URL share its download, and tasks with the same processing share its decode; cancelling a
/// task gives up only its share (the download stops when no task wants it any more). A task finishes
/// exactly once: with its image, an error, or ``ImageLoadError/cancelled(url:)``.
public final class ImageTask: Cancellable {
    typealias Outcome = Result<ImageResponse, ImageLoadError>
    typealias Completion = @Sendable (Result<Image, ImageLoadError>) -> Void
    private typealias Waiter = CheckedContinuation<Outcome, Never>

    private struct State {
        var priority: ImageRequest.Priority
        var result: Outcome?
        var waiters: [Waiter] = []
        var completions: [(queue: DispatchQueue?, completion: Completion)] = []
    }

    /// What was asked for.
    public let request: ImageRequest
    /// The task's number in its pipeline.
    let id: UInt64
    private let coordinator: ImagePipelineCoordinator?
    private let state: Locked<State>

    /// A task the coordinator runs.
    init(request: ImageRequest, id: UInt64, coordinator: ImagePipelineCoordinator) {
        self.request = request
        self.id = id
        self.coordinator = coordinator
        state = Locked(State(priority: request.priority))
    }

    /// A task finished from the start (a memory-cache hit).
    init(request: ImageRequest, id: UInt64, result: Outcome) {
        self.request = request
        self.id = id
        coordinator = nil
        state = Locked(State(priority: request.priority, result: result))
    }

    /// How soon the task's download and decode run; setting it reorders them while they wait in the queues
    /// (a shared download or decode runs at the highest priority of the tasks that want it).
    public var priority: ImageRequest.Priority {
        get { state.withLock { $0.priority } }
        set {
            let changed = state.withLock { state -> Bool in
                guard state.result == nil, state.priority != newValue else { return false }
                state.priority = newValue
                return true
            }
            if changed { coordinator?.setPriority(of: self, to: newValue) }
        }
    }

    /// The image; throws ``ImageLoadError``, ``ImageLoadError/cancelled(url:)`` once cancelled.
    /// Cancelling the awaiting Swift task does not cancel this one (`ImagePipeline.image(for:)` does).
    public var image: Image {
        get async throws(ImageLoadError) { try await result.get() }
    }

    /// The outcome as a `Result`.
    public var result: Result<Image, ImageLoadError> {
        get async { await responseResult.map(\.image) }
    }

    /// The image with where it came from (``ImageResponse/Source``; a task sharing another's download or
    /// decode is told that job's source); throws as ``image`` does.
    public var response: ImageResponse {
        get async throws(ImageLoadError) { try await responseResult.get() }
    }

    /// The outcome with the image's source.
    var responseResult: Outcome {
        get async {
            if let result = state.withLock({ $0.result }) { return result }
            return await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Outcome? in
                    if let result = state.result { return result }
                    state.waiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    /// Whether the task has finished (with an image, an error or a cancellation).
    public var isFinished: Bool { state.withLock { $0.result != nil } }

    /// Stops the task: it finishes with ``ImageLoadError/cancelled(url:)`` at once; its share of the
    /// work is given up. Nothing happens when it has already finished.
    public func cancel() {
        coordinator?.cancel(self)
    }

    /// Calls `completion` once with the outcome, on `queue` or else on a global queue, never synchronously.
    func onFinish(queue: DispatchQueue?, _ completion: @escaping Completion) {
        let ready = state.withLock { state -> Outcome? in
            if let result = state.result { return result }
            state.completions.append((queue, completion))
            return nil
        }
        if let ready { Self.deliver(ready.map(\.image), on: queue, to: completion) }
    }

    /// Records the outcome and wakes everyone waiting for it; `false` when the task had finished already.
    @discardableResult
    func finish(with result: Outcome) -> Bool {
        let taken = state.withLock { state -> ([Waiter], [(queue: DispatchQueue?, completion: Completion)])? in
            guard state.result == nil else { return nil }
            state.result = result
            defer {
                state.waiters = []
                state.completions = []
            }
            return (state.waiters, state.completions)
        }
        guard let taken else { return false }
        // Outside the lock: resuming and completion handlers run other code.
        for waiter in taken.0 { waiter.resume(returning: result) }
        for (queue, completion) in taken.1 { Self.deliver(result.map(\.image), on: queue, to: completion) }
        return true
    }

    private static func deliver(
        _ result: Result<Image, ImageLoadError>, on queue: DispatchQueue?, to completion: @escaping Completion
    ) {
        (queue ?? DispatchQueue.global()).async { completion(result) }
    }
}
