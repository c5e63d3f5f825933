import CPixpipeSystem
import Foundation
import PixpipeLocking
import PixpipeTestSupport
import Testing

@testable import Pixpipe

#if canImport(Glibc)
    import Glibc
#endif

/// Both ways a file gets its name: the unnamed file linked under it (where the folder has them) and the
/// temporary name renamed over it (the fallback, forced here).
@Suite("Atomic file writer: unnamed files and the temporary-name fallback")
struct AtomicFileWriterMethodTests {
    static let methods: [AtomicFileWriter.Method] = [.automatic, .temporaryName]

    private func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// The process umask, from `/proc` (setting it to read it would race with other tests creating files).
    private static var umaskValue: Int {
        get throws {
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
            return try #require(Int(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
        }
    }

    @Test("A new file has the bytes, 0666 less the umask, and nothing else is left", arguments: methods)
    func newFile(method: AtomicFileWriter.Method) throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.path + "/new.bin"
        try AtomicFileWriter.write(Data([1, 2, 3]), to: path, flushes: false, method: method)
        #expect(folder.contents("new.bin") == [1, 2, 3])
        #expect(try mode(path) == 0o666 & ~(try Self.umaskValue))
        #expect(folder.names() == ["new.bin"])
    }

    @Test("An existing file is replaced, keeps its mode, and no temporary file is left", arguments: methods)
    func replaces(method: AtomicFileWriter.Method) throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.path + "/old.bin"
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        try AtomicFileWriter.write(Data("new".utf8), to: path, flushes: true, method: method)
        #expect(folder.contents("old.bin") == Array("new".utf8))
        #expect(try mode(path) == 0o640)
        #expect(folder.names() == ["old.bin"])
    }

    @Test("A failed write leaves no temporary file and the destination as it was", arguments: methods)
    func failureLeavesNothing(method: AtomicFileWriter.Method) throws {
        let folder = TemporaryFolder()
        // A non-empty folder cannot be replaced by a file: the last step fails after the bytes are written.
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("out.png/inner"), withIntermediateDirectories: true)
        let error = #expect(throws: AtomicFileWriter.Failure.self) {
            try AtomicFileWriter.write(Data([1, 2]), to: folder.url.path + "/out.png", flushes: false, method: method)
        }
        #expect(error?.step == .rename)
        #expect(folder.names() == ["out.png"])
        #expect(throws: AtomicFileWriter.Failure.self) {
            try AtomicFileWriter.write(Data([1]), to: folder.url.path + "/missing/x.bin", method: method)
        }
        #expect(folder.names() == ["out.png"])
    }

    @Test("A reader never sees a partial file while it is replaced again and again", arguments: methods)
    func alwaysWhole(method: AtomicFileWriter.Method) throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.path + "/busy.bin"
        let versions = (0..<4).map { Data(repeating: UInt8($0), count: 256 * 1024) }
        try AtomicFileWriter.write(versions[0], to: path, flushes: false, method: method)
        // (stop, reads, reads that matched no version)
        let state = Locked((done: false, reads: 0, bad: 0))
        // A thread of its own: the writing loop below holds a cooperative thread, and the pool may have no other.
        let finished = DispatchSemaphore(value: 0)
        let reader = Thread {
            defer { finished.signal() }
            while !state.withLock({ $0.done }) {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                let whole = versions.contains(data)
                state.withLock { state in
                    state.reads += 1
                    if !whole { state.bad += 1 }
                }
            }
        }
        reader.start()
        // Rewrites while the reader reads: at least 200 times and until it has read 100 times (10 s at most).
        let started = ContinuousClock.now
        var round = 1
        while round <= 200 || state.withLock({ $0.reads }) < 100, ContinuousClock.now - started < .seconds(10) {
            try AtomicFileWriter.write(versions[round % versions.count], to: path, flushes: false, method: method)
            round += 1
        }
        state.withLock { $0.done = true }
        finished.wait()
        let (reads, bad) = state.withLock { ($0.reads, $0.bad) }
        #expect(reads > 0)
        #expect(bad == 0)
        #expect(folder.names() == ["busy.bin"])
    }

    @Test("Where the folder has unnamed files, the automatic method keeps using them")
    func unnamedSupportRemembered() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let probe = pxp_open_unnamed(folder.url.path, 0o600)
        guard probe >= 0 else { return }  // This file system has none: the fallback is all there is.
        close(probe)
        try AtomicFileWriter.write(Data([7]), to: folder.url.path + "/a.bin", flushes: false)
        #expect(UnnamedFileSupport.shared.isSupported(in: folder.url.path))
        #expect(folder.names() == ["a.bin"])
    }

    @Test("A batch stored through the forced fallback has every file and no temporary name")
    func batchThroughFallback() async throws {
        let server = try TestHTTPServer()
        let items = (0..<12).map { number in
            server.route("/f\(number).png", .respond(body: Bodies.png(seed: number)))
            return DownloadItem(url: server.url("/f\(number).png"))
        }
        let folder = TemporaryFolder()
        let downloader = Downloader(options: testOptions(folder), writer: AtomicFileWriter(method: .temporaryName))
        let result = await downloader.download(items)
        #expect(result.ok == 12)
        #expect(folder.imageNames() == (0..<12).map { "f\($0).png" }.sorted())
        for number in 0..<12 { #expect(folder.contents("f\(number).png") == Bodies.png(seed: number)) }
        #expect(!folder.names().contains { $0.hasPrefix(".") })
    }
}
