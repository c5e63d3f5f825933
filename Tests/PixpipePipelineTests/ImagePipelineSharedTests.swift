import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// `ImagePipeline.shared` in a program of its own (`PixpipeCacheWorker shared`), with `XDG_CACHE_HOME`
/// pointing into a fresh folder, so the test never touches the user's cache.
@Suite(
    "Image pipeline: the shared pipeline and its cache folder", .serialized,
    .enabled(if: CacheWorker.url != nil, "PixpipeCacheWorker is not built"))
struct ImagePipelineSharedTests {
    let server: TestHTTPServer
    let base: URL

    init() throws {
        server = try TestHTTPServer()
        base = FileManager.default.temporaryDirectory.appendingPathComponent("pixpipe-xdg-\(UUID())")
    }

    /// Runs `PixpipeCacheWorker shared URL...` with `XDG_CACHE_HOME` set; its exit status and output lines.
    func loadShared(_ urls: [URL], cacheHome: String) throws -> (status: Int32, lines: [String]) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("shared-worker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: log) }
        let worker = try CacheWorker.start(
            ["shared"] + urls.map(\.absoluteString), output: log, environment: ["XDG_CACHE_HOME": cacheHome])
        worker.waitUntilExit()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return (worker.terminationStatus, output.split(separator: "\n").map(String.init))
    }

    @Test("The shared pipeline caches on the disk in $XDG_CACHE_HOME/pixpipe, made on first use")
    func sharedDiskCache() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        server.route("/cat.png", .respond(headers: ["Cache-Control": "max-age=3600"], body: PipelineFixture.png()))
        let local = base.appendingPathComponent("icon.png")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        try Data(PipelineFixture.png(width: 8, height: 6)).write(to: local)
        // Two levels that do not exist yet: the shared pipeline makes them.
        let cacheHome = base.appendingPathComponent("home/cache").path
        let folder = cacheHome + "/pixpipe"

        let first = try loadShared([server.url("/cat.png"), local], cacheHome: cacheHome)
        #expect(first.status == 0, "\(first.lines)")
        #expect(first.lines == ["64x48 network", "8x6 localFile", "cache \(folder)"])
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }
        #expect(entries == [DataCache.fileName(for: server.url("/cat.png").absoluteString)])

        let second = try loadShared([server.url("/cat.png")], cacheHome: cacheHome)
        #expect(second.lines == ["64x48 diskCache", "cache \(folder)"])
        #expect(server.requestCount("/cat.png") == 1)
    }

    @Test("When the cache folder cannot be made, the shared pipeline still loads, with no disk cache")
    func unwritableCacheHome() throws {
        defer { try? FileManager.default.removeItem(at: base) }
        server.route("/cat.png", .respond(headers: ["Cache-Control": "max-age=3600"], body: PipelineFixture.png()))
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        // A regular file where a folder of the path should be.
        let blocker = base.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let child = try loadShared([server.url("/cat.png")], cacheHome: blocker.appendingPathComponent("cache").path)
        #expect(child.status == 0, "\(child.lines)")
        #expect(child.lines == ["64x48 network", "cache none"])
    }

    @Test("The default folder follows XDG_CACHE_HOME when absolute, else HOME/.cache")
    func defaultDirectory() {
        #expect(
            DataCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/a"])?.path
                == "/x/cache/pixpipe")
        #expect(
            DataCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/a"])?.path
                == "/home/a/.cache/pixpipe")
        #expect(
            DataCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "", "HOME": "/home/a"])?.path
                == "/home/a/.cache/pixpipe")
        #expect(DataCache.defaultDirectory(environment: [:]) == nil)
    }
}
