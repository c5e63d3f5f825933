import Foundation
import PixpipeTestSupport
import Testing

@testable import PixpipeHTTP

@Suite("Curl multi engine timeouts and cancellation")
struct CurlEngineTimingTests {
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
    }

    private func elapsed(of request: CurlTransferRequest, on engine: CurlMultiEngine) async -> (
        CurlTransferError?, Duration
    ) {
        let clock = ContinuousClock()
        var failure: CurlTransferError?
        let duration = await clock.measure {
            do throws(CurlTransferError) {
                _ = try await engine.perform(request, sink: CurlBodyCollector())
            } catch { failure = error }
        }
        return (failure, duration)
    }

    @Test func totalDeadlineIsExactToTensOfMilliseconds() async throws {
        server.route("/late", .delayHeaders(seconds: 5, then: .text("late")))
        let engine = CurlMultiEngine()
        var request = CurlTransferRequest(url: server.url("/late"))
        request.totalTimeout = .milliseconds(250)
        let (error, duration) = await elapsed(of: request, on: engine)
        guard case .timedOut(.total, let reported)? = error else {
            Issue.record("expected a total timeout, got \(String(describing: error))")
            return
        }
        // The engine's own measurement is tight; the wall clock also counts task scheduling, which a
        // suite starting at once on two shared cores can delay. libcurl starts its clock when the
        // handle joins the multi handle, a little before the engine notes the start, so the lower
        // bound is checked on the wall clock.
        #expect(reported < 300)
        // libcurl counts whole milliseconds (its time differences can round up), so it may fire up to 1 ms
        // early by the wall clock: seen once when the engine polled at the very moment.
        #expect(duration >= .milliseconds(249) && duration < .milliseconds(750))
        await engine.shutdown()
    }

    @Test func idleTimeoutFiresWhenBytesStopArriving() async throws {
        let body = [UInt8](repeating: 2, count: 300)
        server.route("/stall", .trickle(body: body, chunkSize: 100, interval: 5))
        let engine = CurlMultiEngine()
        var request = CurlTransferRequest(url: server.url("/stall"))
        request.idleTimeout = .milliseconds(200)
        let (error, duration) = await elapsed(of: request, on: engine)
        guard case .timedOut(.idle, let reported)? = error else {
            Issue.record("expected an idle timeout, got \(String(describing: error))")
            return
        }
        #expect(reported >= 200 && reported < 250)
        #expect(duration >= .milliseconds(200) && duration < .milliseconds(700))
        await engine.shutdown()
    }

    @Test func slowButSteadyBodiesAreNotIdle() async throws {
        let body = [UInt8](repeating: 3, count: 500)
        server.route("/steady", .trickle(body: body, chunkSize: 100, interval: 0.05))
        let engine = CurlMultiEngine()
        var request = CurlTransferRequest(url: server.url("/steady"))
        request.idleTimeout = .milliseconds(150)
        let (error, _) = await elapsed(of: request, on: engine)
        #expect(error == nil)
        await engine.shutdown()
    }

    @Test func cancellingManyInFlightTransfersLeavesNothingBehind() async throws {
        server.route("/hang", .delayHeaders(seconds: 30, then: .text("never")))
        var configuration = CurlEngineConfiguration()
        configuration.maxConnectionsPerHost = 16
        let engine = CurlMultiEngine(configuration: configuration)
        let count = 1000
        let url = server.url("/hang")
        let clock = ContinuousClock()
        let started = clock.now
        let errors = await withTaskGroup(of: CurlTransferError?.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do throws(CurlTransferError) {
                        _ = try await engine.perform(CurlTransferRequest(url: url), sink: CurlBodyCollector())
                        return nil
                    } catch { return error }
                }
            }
            _ = await server.waitForRequests("/hang", count: 16, timeout: 5)
            group.cancelAll()
            return await group.reduce(into: [CurlTransferError?]()) { $0.append($1) }
        }
        #expect(clock.now - started < .seconds(5))
        #expect(errors.count == count)
        #expect(errors.allSatisfy { $0 == .cancelled })
        let afterCancel = engine.counters.snapshot
        #expect(afterCancel.activeTransfers == 0)
        #expect(afterCancel.finishedTransfers == count)
        #expect(afterCancel.liveEasyHandles <= CurlEngineConfiguration().maxPooledHandles)
        let connectedWhileRunning = OpenConnections.count(toPort: server.port)
        await engine.shutdown()
        let afterShutdown = engine.counters.snapshot
        // What the kernel holds is the requirement: no connection to the server survives the engine.
        if let connected = OpenConnections.count(toPort: server.port) {
            #expect(
                connected == 0, "\(connected) sockets still connected (\(connectedWhileRunning ?? -1) before shutdown)")
        }
        // libcurl's close-socket callback, counted: seen once under full parallel load to miss the 16-17
        // connections of this test while the kernel check (added after) is what decides whether one leaked.
        withKnownIssue("libcurl closing sockets without the close-socket callback", isIntermittent: true) {
            #expect(afterShutdown.openSockets == 0)
        }
        #expect(afterShutdown.liveEasyHandles == 0)
        #expect(!afterShutdown.threadRunning)
    }

    @Test func aTaskCancelledBeforeStartingNeverReachesTheServer() async throws {
        server.route("/never", .text("no"))
        let engine = CurlMultiEngine()
        let url = server.url("/never")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await engine.perform(CurlTransferRequest(url: url), sink: CurlBodyCollector())
        }
        await #expect(throws: CurlTransferError.cancelled) { try await task.value }
        await engine.shutdown()
        #expect(server.requestCount("/never") == 0)
    }

    @Test func shuttingDownFailsTransfersStillRunning() async throws {
        server.route("/slow", .delayHeaders(seconds: 30, then: .text("late")))
        let engine = CurlMultiEngine()
        let url = server.url("/slow")
        let task = Task { try await engine.perform(CurlTransferRequest(url: url), sink: CurlBodyCollector()) }
        _ = await server.waitForRequests("/slow", count: 1, timeout: 5)
        await engine.shutdown()
        await #expect(throws: CurlTransferError.engineStopped) { try await task.value }
        await #expect(throws: CurlTransferError.engineStopped) {
            try await engine.perform(CurlTransferRequest(url: url), sink: CurlBodyCollector())
        }
    }
}
