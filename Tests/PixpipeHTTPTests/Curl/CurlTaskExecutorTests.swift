import Foundation
import PixpipeLocking
import PixpipeTestSupport
import Testing

@testable import PixpipeHTTP

/// Tasks can prefer the curl transport's own thread: they run there between transfers, resume there after
/// each response, keep working when the engine stops, and cancel as on any executor.
@Suite("Curl transport as a task executor")
struct CurlTaskExecutorTests {
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
    }

    @Test func tasksThatPreferTheTransportRunOnItsThreadBeforeAndAfterEachRequest() async throws {
        for index in 0..<40 { server.route("/item/\(index)", .text("item \(index)")) }
        let transport = CurlTransport(maxConnectionsPerHost: 8)
        let client = HTTPClient(transport: transport)
        let executor = try #require(client.transport.taskExecutor)
        let server = server
        let results = try await value(
            of: Task {
                await withTaskGroup(of: (String, [Bool]).self) { group in
                    for index in 0..<40 {
                        group.addTask(executorPreference: executor) {
                            var threads = [onTransportThread(transport)]
                            let url = server.url("/item/\(index)")
                            let body = (try? await client.send(Request<String>(url: url))) ?? "failed"
                            threads.append(onTransportThread(transport))
                            return (body, threads)
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            })
        #expect(Set(results.map(\.0)) == Set((0..<40).map { "item \($0)" }))
        #expect(results.allSatisfy { $0.1 == [true, true] })
        // Without the preference, the same code runs on the global executor's threads.
        let elsewhere = await Task { onTransportThread(transport) }.value
        #expect(!elsewhere)
    }

    @Test func sleepingOnTheTransportThreadWakesUpThere() async throws {
        let transport = CurlTransport()
        let executor = try #require(transport.taskExecutor)
        let onThread = try await value(
            of: Task(executorPreference: executor) {
                try? await Task.sleep(for: .milliseconds(20))
                return onTransportThread(transport)
            })
        #expect(onThread)
    }

    @Test func cancellingATaskOnTheTransportThreadStopsItsTransfer() async throws {
        server.route("/slow", .delayHeaders(seconds: 10, then: .text("late")))
        let transport = CurlTransport()
        let client = HTTPClient(transport: transport)
        let executor = try #require(transport.taskExecutor)
        let url = server.url("/slow")
        let started = ContinuousClock.now
        let task = Task(executorPreference: executor) { () -> HTTPError? in
            do throws(HTTPError) {
                _ = try await client.send(Request<String>(url: url))
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let error = try await value(of: task)
        guard case .cancelled = error else {
            Issue.record("expected cancellation, got \(String(describing: error))")
            return
        }
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func tasksMoveToTheGlobalExecutorWhenTheEngineStops() async throws {
        server.route("/first", .text("first"))
        let engine = CurlMultiEngine()
        let gate = Gate()
        let url = server.url("/first")
        let task = Task(executorPreference: engine) { () -> (String, Bool, Bool) in
            let collector = CurlBodyCollector()
            let outcome = try? await engine.perform(CurlTransferRequest(url: url), sink: collector)
            let before = engine.isCurrentThread
            await gate.wait()
            let body = outcome.map { _ in String(decoding: collector.body, as: UTF8.self) } ?? "failed"
            return (body, before, engine.isCurrentThread)
        }
        try await value(of: Task { await gate.untilWaiting() })
        await engine.shutdown()
        gate.open()
        let (body, before, after) = try await value(of: task)
        #expect(body == "first")
        #expect(before)
        #expect(!after)
        withExtendedLifetime(engine) {}
    }
}

/// The task's value, or a failure after `limit` without waiting further: a job that never runs (the bug these
/// tests look for) would otherwise hang the test, which no time limit can cancel.
private func value<T: Sendable>(of task: Task<T, Never>, within limit: Duration = .seconds(20)) async throws -> T {
    let first = Locked<CheckedContinuation<T?, Never>?>(nil)
    let result: T? = await withCheckedContinuation { continuation in
        first.withLock { $0 = continuation }
        Task {
            let value = await task.value
            first.withLock { $0.take() }?.resume(returning: value)
        }
        Task {
            try? await Task.sleep(for: limit)
            first.withLock { $0.take() }?.resume(returning: nil)
        }
    }
    guard let result else { throw TimedOut(limit: limit) }
    return result
}

/// A task that did not finish in time.
private struct TimedOut: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "the task did not finish within \(limit)" }
}

/// Whether the caller runs on the transport's thread (a plain function: the check reads the calling thread).
private func onTransportThread(_ transport: CurlTransport) -> Bool {
    transport.isCurrentThread
}

/// A one-shot gate: tasks wait until it opens; the test can wait until someone is waiting.
private final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var watchers: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (resumeNow, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                if state.isOpen { return (true, []) }
                state.waiters.append(continuation)
                defer { state.watchers = [] }
                return (false, state.watchers)
            }
            for watcher in watchers { watcher.resume() }
            if resumeNow { continuation.resume() }
        }
    }

    func untilWaiting() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = state.withLock { state in
                if state.waiters.isEmpty { state.watchers.append(continuation) }
                return !state.waiters.isEmpty
            }
            if waiting { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
