import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

@Suite("pixpipe fetch: SIGINT stops a batch cleanly")
struct FetchInterruptTests {
    @Test("SIGINT mid-batch: exit 130, a valid manifest, no temporary files left")
    func interrupt() async throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        let png = Array(try TestImages.png())
        server.route("/fast.png", .respond(body: png))
        server.route("/slow.png", .delayHeaders(seconds: 30, then: .respond(body: png)))
        var lines = [server.url("/fast.png").absoluteString]
        lines += (0..<200).map { server.url("/slow.png?\($0)").absoluteString }
        let list = try folder.write(Data(lines.joined(separator: "\n").utf8), to: "list.txt")

        let process = Process()
        process.executableURL = pixpipe.url
        process.arguments = ["fetch", list, "--out", folder.path("out"), "--concurrency", "4"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first image stored: the batch is under way, with slow transfers in flight.
        let stored = folder.path("out/fast.png")
        let waitStart = ContinuousClock.now
        while !FileManager.default.fileExists(atPath: stored), ContinuousClock.now - waitStart < .seconds(20) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(FileManager.default.fileExists(atPath: stored))
        #expect(await server.waitForRequests("/slow.png", count: 3, timeout: 20))
        kill(process.processIdentifier, SIGINT)
        let started = ContinuousClock.now
        while process.isRunning, ContinuousClock.now - started < .seconds(20) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!process.isRunning, "the child did not stop after SIGINT")
        if process.isRunning { process.terminate() }
        process.waitUntilExit()

        #expect(process.terminationStatus == 130)
        let text = try String(contentsOfFile: folder.path("out/manifest.jsonl"), encoding: .utf8)
        let records = try text.split(separator: "\n").map {
            try JSONDecoder().decode(ManifestRecord.self, from: Data($0.utf8))
        }
        #expect(records.contains { $0.url.hasSuffix("/fast.png") && $0.status == .ok })
        #expect(records.count < lines.count)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path("out"))
        #expect(names.allSatisfy { !$0.hasPrefix(".") })
        #expect(names.contains("fast.png"))
    }
}
