import Foundation
import PixpipeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

@Suite("pixpipe fetch --shard: per-host slots shared through the folder", .serialized)
struct FetchShardSlotsTests {
    /// Whether the slot file at `path` is locked by someone else now (a non-blocking `flock` fails).
    static func isLocked(_ path: String) -> Bool {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
            _ = flock(descriptor, LOCK_UN)
            return false
        }
        return true
    }

    /// Starts `pixpipe` with `arguments`, its output thrown away.
    static func start(_ pixpipe: PixpipeExecutable, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = pixpipe.url
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test("A shard killed with SIGKILL while holding the host's only slot gives it back: the next run proceeds")
    func killedShardReleasesItsSlot() async throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        let png = Array(try TestImages.png())
        // Held far longer than any wait below, with a timeout as long: the first run is still holding its slot
        // when it is killed, however slowly a loaded machine gets there (the kill ends the hold).
        server.route("/held.png", .delayHeaders(seconds: 900, then: .respond(body: png)))
        server.route("/fast.png", .respond(body: png))
        let held = try folder.write(Data(server.url("/held.png").absoluteString.utf8), to: "held.txt")
        let fast = try folder.write(Data(server.url("/fast.png").absoluteString.utf8), to: "fast.txt")
        let out = folder.path("out")
        let slot = out + "/.pixpipe/slots/127.0.0.1_\(server.port)/0"

        let arguments = ["--shard", "0/1", "--per-host", "1", "--timeout", "900", "--deadline", "0"]
        let first = try Self.start(pixpipe, ["fetch", held, "--out", out] + arguments)
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        #expect(await server.waitForRequests("/held.png", count: 1, timeout: 300))
        // The request is at the server, so its transfer holds the host's one shared slot.
        #expect(Self.isLocked(slot))
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect(first.terminationReason == Process.TerminationReason.uncaughtSignal)
        #expect(!Self.isLocked(slot))

        let second = try Self.start(pixpipe, ["fetch", fast, "--out", out, "--shard", "0/1", "--per-host", "1"])
        let started = ContinuousClock.now
        while second.isRunning, ContinuousClock.now - started < .seconds(300) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!second.isRunning, "the next run did not finish: the killed run's slot is still taken")
        if second.isRunning { kill(second.processIdentifier, SIGKILL) }
        second.waitUntilExit()
        #expect(second.terminationStatus == 0)
        #expect(server.requestCount("/fast.png") == 1)
        #expect(FileManager.default.fileExists(atPath: out + "/fast.png"))
    }
}
