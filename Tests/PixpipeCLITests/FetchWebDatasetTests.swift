import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// `pixpipe fetch --archive webdataset`: shards read back with Python's `tarfile` and checked against the
/// manifest, and a run killed in the middle of a shard, then resumed.
@Suite("pixpipe fetch --archive webdataset", .serialized)
struct FetchWebDatasetTests {
    /// One member of a shard as Python's `tarfile` reads it.
    struct Member: Decodable, Hashable {
        let shard: String
        let name: String
        let sha256: String
        let isFile: Bool
    }

    /// Every member of the `.tar` files of `folder`, read by `tarfile` in a child Python.
    static func members(of folder: String) throws -> [Member] {
        let script = """
            import hashlib, json, os, sys, tarfile
            folder = sys.argv[1]
            out = []
            for shard in sorted(n for n in os.listdir(folder) if n.endswith(".tar")):
                with tarfile.open(os.path.join(folder, shard)) as tar:
                    for m in tar.getmembers():
                        data = tar.extractfile(m).read() if m.isfile() else b""
                        out.append({"shard": shard, "name": m.name, "isFile": m.isfile(),
                                    "sha256": hashlib.sha256(data).hexdigest()})
            print(json.dumps(out))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, folder]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 could not read the shards")
        return try JSONDecoder().decode([Member].self, from: data)
    }

    static func manifest(_ folder: TemporaryDirectory) throws -> [ManifestRecord] {
        let text = try String(contentsOfFile: folder.path("out/manifest.jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map {
            try JSONDecoder().decode(ManifestRecord.self, from: Data($0.utf8))
        }
    }

    /// Each `ok` record's image and JSON are in the shard it names, with the recorded hash; nothing else is.
    static func checkShards(_ members: [Member], against records: [ManifestRecord]) throws {
        var expected: Set<String> = []
        for record in records where record.status == .ok {
            let archive = try #require(record.archive, "\(record.url) names no shard")
            let name = try #require(record.name)
            let image = members.first { $0.shard == archive && $0.name == name }
            #expect(image?.sha256 == record.sha256, "\(archive)/\(name)")
            #expect(image?.isFile == true)
            let key = String(name.prefix { $0 != "." })
            #expect(members.contains { $0.shard == archive && $0.name == "\(key).json" })
            expected.insert("\(archive)/\(name)")
            expected.insert("\(archive)/\(key).json")
        }
        #expect(Set(members.map { "\($0.shard)/\($0.name)" }) == expected)
        #expect(members.count == expected.count, "a member is in the shards twice")
    }

    @Test("shards of --shard-size items in list order, read by tarfile, match the manifest")
    func shardsMatchManifest() throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        var urls: [String] = []
        for number in 1...5 {
            let png = Array(try TestImages.png(TestImages.gradient(width: 8 + number, height: 8)))
            server.route("/img\(number).png", .respond(body: png))
            urls.append(server.url("/img\(number).png").absoluteString)
        }
        server.route("/missing.png", .respond(status: 404, body: Array("no".utf8)))
        urls.insert(server.url("/missing.png").absoluteString, at: 2)
        let list = try folder.write(Data(urls.joined(separator: "\n").utf8), to: "list.txt")

        let result = try pixpipe.run([
            "fetch", list, "--out", folder.path("out"), "--archive", "webdataset", "--shard-size", "2", "--retries",
            "0",
        ])
        #expect(result.status == 1, "one item fails: \(result.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).sorted()
        #expect(names == ["00000.tar", "00001.tar", "00002.tar", "manifest.jsonl"])
        let records = try Self.manifest(folder)
        #expect(records.count == 6)
        // List order: items 1-2 in the first shard, 3 (the failure) and 4 in the second, 5-6 in the third.
        let byURL = Dictionary(uniqueKeysWithValues: records.map { ($0.url, $0) })
        #expect(byURL[urls[0]]?.archive == "00000.tar" && byURL[urls[0]]?.name == "000000001.png")
        #expect(byURL[urls[2]]?.status == .failed && byURL[urls[2]]?.archive == "00001.tar")
        #expect(byURL[urls[5]]?.archive == "00002.tar" && byURL[urls[5]]?.name == "000000006.png")
        try Self.checkShards(try Self.members(of: folder.path("out")), against: records)
        // Standard output names each stored image as a member of its shard.
        #expect(result.outputLines.contains(folder.path("out") + "/00000.tar/000000001.png"))

        // A rerun asks for nothing: every shard is finished.
        let again = try pixpipe.run([
            "fetch", list, "--out", folder.path("out"), "--archive", "webdataset", "--shard-size", "2",
        ])
        #expect(again.status == 0, "\(again.errors)")
        for number in 1...5 { #expect(server.requestCount("/img\(number).png") == 1) }
        #expect(try Self.manifest(folder).count == 6)
    }

    @Test("a run killed mid-shard leaves only whole shards; the rerun redoes that shard alone")
    func killedMidShard() async throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        var urls: [String] = []
        for number in 1...4 {
            let png = Array(try TestImages.png(TestImages.gradient(width: 8 + number, height: 8)))
            server.route("/img\(number).png", .respond(body: png))
            urls.append(server.url("/img\(number).png").absoluteString)
        }
        let stallPNG = Array(try TestImages.png(TestImages.gradient(width: 20, height: 8)))
        server.route("/stall.png", .delayHeaders(seconds: 600, then: .respond(body: [])))
        // Shards of 2: [img1, img2] [stall, img3] [img4].
        urls.insert(server.url("/stall.png").absoluteString, at: 2)
        let list = try folder.write(Data(urls.joined(separator: "\n").utf8), to: "list.txt")
        let arguments = ["fetch", list, "--out", folder.path("out"), "--archive", "webdataset", "--shard-size", "2"]

        let process = Process()
        process.executableURL = pixpipe.url
        process.arguments = arguments + ["--timeout", "600"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The shards on either side of the stalled one are finished without it: their three records are written.
        #expect(await server.waitForRequests("/stall.png", count: 1, timeout: 60))
        var recorded = 0
        for _ in 0..<600 {
            recorded = (try? Self.manifest(folder).count) ?? 0
            if recorded == 3 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(recorded == 3)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        let tars = try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).filter {
            $0.hasSuffix(".tar")
        }
        #expect(tars.sorted() == ["00000.tar", "00002.tar"])
        #expect(try Self.manifest(folder).count == 3)
        try Self.checkShards(try Self.members(of: folder.path("out")), against: try Self.manifest(folder))

        server.route("/stall.png", .respond(body: stallPNG))
        let rerun = try pixpipe.run(arguments)
        #expect(rerun.status == 0, "\(rerun.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).sorted()
        #expect(names == ["00000.tar", "00001.tar", "00002.tar", "manifest.jsonl"])
        // The finished shards' items were not asked for again; the cut one was redone whole.
        for number in [1, 2, 4] { #expect(server.requestCount("/img\(number).png") == 1) }
        #expect(server.requestCount("/img3.png") == 2)
        let records = try Self.manifest(folder)
        #expect(records.map(\.url).sorted() == urls.sorted(), "every item recorded once")
        #expect(records.allSatisfy { $0.status == .ok })
        #expect(records.first { $0.url == urls[3] }?.name == "000000004.png")
        try Self.checkShards(try Self.members(of: folder.path("out")), against: records)
    }

    @Test("bad list lines are recorded in the manifest as a plain run records them, once, and exit 1")
    func badLinesRecorded() throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        server.route("/a.png", .respond(body: Array(try TestImages.png())))
        let lines = [server.url("/a.png").absoluteString, "ftp://example.com/b.png", "http://[bad"]
        let list = try folder.write(Data(lines.joined(separator: "\n").utf8), to: "list.txt")
        let arguments = ["fetch", list, "--out", folder.path("out"), "--archive", "webdataset", "--shard-size", "2"]
        let plain = try pixpipe.run(["fetch", list, "--out", folder.path("plain")])
        let first = try pixpipe.run(arguments)
        #expect(first.status == 1 && plain.status == 1)
        let records = try Self.manifest(folder)
        let text = try String(contentsOfFile: folder.path("plain/manifest.jsonl"), encoding: .utf8)
        let plainRecords = try text.split(separator: "\n").map {
            try JSONDecoder().decode(ManifestRecord.self, from: Data($0.utf8))
        }
        let badLines = records.filter { $0.archive == nil }
        #expect(badLines.map(\.errorKind) == ["unsupported-scheme", "invalid-url"])
        #expect(badLines == plainRecords.filter { $0.status == .failed })
        #expect(records.filter { $0.status == .ok }.map(\.archive) == ["00000.tar"])
        // The summary counts them as a plain run's does.
        #expect(first.errors.contains("2 failed") && plain.errors.contains("2 failed"), "\(first.errors)")

        let again = try pixpipe.run(arguments)
        #expect(again.status == 1)
        #expect(try Self.manifest(folder).count == records.count, "each bad line recorded once")
    }

    @Test("--shard I/N names the tar files by share, so several processes fill one folder")
    func sharesDoNotCollide() throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        var urls: [String] = []
        for number in 1...8 {
            let png = Array(try TestImages.png(TestImages.gradient(width: 8 + number, height: 8)))
            server.route("/img\(number).png", .respond(body: png))
            urls.append(server.url("/img\(number).png").absoluteString)
        }
        let list = try folder.write(Data(urls.joined(separator: "\n").utf8), to: "list.txt")
        for share in 0..<2 {
            let result = try pixpipe.run([
                "fetch", list, "--out", folder.path("out"), "--archive", "webdataset", "--shard-size", "3",
                "--shard", "\(share)/2",
            ])
            #expect(result.status == 0, "\(result.errors)")
        }
        let tars = try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).filter {
            $0.hasSuffix(".tar")
        }
        #expect(tars.allSatisfy { $0.hasPrefix("0-of-2-") || $0.hasPrefix("1-of-2-") })
        let records = try Self.manifest(folder)
        #expect(records.map(\.url).sorted() == urls.sorted())
        try Self.checkShards(try Self.members(of: folder.path("out")), against: records)
    }

    @Test("--shard-size without --archive, and an unknown --archive, are usage errors")
    func usageErrors() throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        let folder = try TemporaryDirectory()
        let list = try folder.write(Data("http://127.0.0.1:9/a.png\n".utf8), to: "list.txt")
        let alone = try pixpipe.run(["fetch", list, "--out", folder.path("out"), "--shard-size", "2"])
        #expect(alone.status == 2)
        let unknown = try pixpipe.run(["fetch", list, "--out", folder.path("out"), "--archive", "rar"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("--archive"))
    }
}
