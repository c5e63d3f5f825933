import Foundation

/// A request running in its own task: await its value, watch its progress, or cancel it.
///
/// ```swift
/// let task = client.task(for: Request<Data>(path: "/big.bin"))
/// for await progress in task.progress { print(progress.bytesReceived) }
/// let data = try await task.value
/// ```
public final class FetchTask<Value: Sendable>: Cancellable {
    /// Progress of the body transfer, one element per chunk received; finishes when the request ends.
    public let progress: AsyncStream<TransferProgress>
    private let task: Task<Result<Response<Value>, HTTPError>, Never>

    init(client: HTTPClient, request: Request<Value>) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: TransferProgress.self, bufferingPolicy: .bufferingNewest(64))
        var observed = request
        let earlier = request.onProgress
        observed.onProgress = { update in
            earlier?(update)
            continuation.yield(update)
        }
        let finalRequest = observed
        progress = stream
        task = Task {
            defer { continuation.finish() }
            do throws(HTTPError) {
                return .success(try await client.response(for: finalRequest))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The converted response with its metadata.
    public var response: Response<Value> {
        get async throws(HTTPError) { try await task.value.get() }
    }

    /// The converted body.
    public var value: Value {
        get async throws(HTTPError) { try await task.value.get().value }
    }

    /// The outcome as a `Result`.
    public var result: Result<Value, HTTPError> {
        get async { await task.value.map(\.value) }
    }

    /// Cancels the request; awaiting it then fails with ``HTTPError/cancelled(url:)``.
    public func cancel() {
        task.cancel()
    }
}
