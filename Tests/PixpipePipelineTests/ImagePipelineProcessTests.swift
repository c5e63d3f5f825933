import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// A second process over the disk cache a first one filled: what a program run again would do.
@Suite(
    "Image pipeline across processes", .serialized,
    .enabled(if: CacheWorker.url != nil, "PixpipeCacheWorker is not built"))
struct ImagePipelineProcessTests {
    let server: TestHTTPServer
    let folder = CacheFolder()

    init() throws {
        server = try TestHTTPServer()
    }

    /// Runs `PixpipeCacheWorker load` over the folder and returns its exit status and output lines.
    func loadInChild(_ urls: [URL]) throws -> (status: Int32, lines: [String]) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-worker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: log) }
        let worker = try CacheWorker.start(["load", folder.url.path] + urls.map(\.absoluteString), output: log)
        worker.waitUntilExit()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return (worker.terminationStatus, output.split(separator: "\n").map(String.init))
    }

    @Test("A new process makes no request while the entries are fresh, and one 304 each once stale")
    func secondProcess() async throws {
        let png = PipelineFixture.png()
        server.route("/fresh.png", .respond(headers: ["Cache-Control": "max-age=3600"], body: png))
        server.route(
            "/stale.png",
            .handler { request in
                if request.header("If-None-Match") == "\"v1\"" {
                    return .respond(status: 304, headers: ["ETag": "\"v1\""], body: [])
                }
                return .respond(headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""], body: png)
            })
        let urls = [server.url("/fresh.png"), server.url("/stale.png")]
        let pipeline = PipelineFixture.pipeline(
            client: PipelineFixture.client(), dataCache: try DataCache(directory: folder.url))
        for url in urls { #expect(PipelineFixture.isImage(try await pipeline.image(for: url))) }

        let child = try loadInChild(urls)
        #expect(child.status == 0, "\(child.lines)")
        #expect(child.lines == ["64x48", "64x48", "requests 1 notModified 1 diskHits 1"])
        #expect(server.requestCount("/fresh.png") == 1)
        #expect(server.requests("/stale.png").map { $0.header("If-None-Match") } == [nil, "\"v1\""])
    }
}
