import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// Names across lists and runs: a name the folder's records give to one URL is never another's, and a
/// file the downloader did not record is never replaced. `pixpipe fetch` run as a process, as a user does.
@Suite("pixpipe fetch: no file lost to another list or another run", .serialized)
struct FetchNameReservationTests {
    let pixpipe: PixpipeExecutable
    let server: TestHTTPServer
    let folder: TemporaryDirectory

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        server = try TestHTTPServer()
        folder = try TemporaryDirectory()
    }

    /// A small PNG whose pixels depend on `seed`: each chapter's `01.png` is a different image.
    static func page(_ seed: Int) throws -> Data {
        var image = Image(width: 12, height: 8, pixelFormat: .rgb8)
        for y in 0..<8 {
            for x in 0..<12 {
                for channel in 0..<3 { image[x: x, y: y, channel: channel] = (x * 17 + y * seed + channel * 5) % 256 }
            }
        }
        return try image.encoded(as: .png)
    }

    /// Serves `count` pages under `/<chapter>/NN.png` (each different) and writes their list; returns the
    /// list's path and the bytes served per URL.
    func chapter(_ chapter: String, pages count: Int, seed: Int) throws -> (list: String, bodies: [String: Data]) {
        var bodies: [String: Data] = [:]
        var lines: [String] = []
        for number in 1...count {
            let path = "/\(chapter)/\(String(format: "%02d", number)).png"
            let body = try Self.page(seed * 1000 + number)
            server.route(path, .respond(headers: ["Content-Type": "image/png"], body: Array(body)))
            let url = server.url(path).absoluteString
            bodies[url] = body
            lines.append(url)
        }
        let list = try folder.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: "\(chapter).txt")
        return (list, bodies)
    }

    func fetch(_ list: String, _ extra: [String] = []) throws -> PixpipeExecutable.Result {
        try pixpipe.run(["fetch", list, "--out", folder.path("out"), "--retries", "1", "--timeout", "5"] + extra)
    }

    /// The latest manifest record per URL.
    func latest() throws -> [String: ManifestRecord] {
        let data = try WholeFile.data(at: URL(fileURLWithPath: folder.path("out/manifest.jsonl")))
        var records: [String: ManifestRecord] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let record = try JSONDecoder().decode(ManifestRecord.self, from: Data(line))
            records[record.url] = record
        }
        return records
    }

    /// Checks that every URL of `bodies` is recorded `ok` with a file holding exactly the bytes served for
    /// it; returns the names.
    func expectStored(_ bodies: [String: Data]) throws -> Set<String> {
        let records = try latest()
        var names: Set<String> = []
        for (url, body) in bodies {
            let record = try #require(records[url], "no record for \(url)")
            #expect(record.status == .ok)
            let name = try #require(record.name)
            names.insert(name)
            let stored = try WholeFile.data(at: URL(fileURLWithPath: folder.path("out/\(name)")))
            #expect(stored == body, "\(name) does not hold the bytes of \(url)")
            #expect(record.sha256 == SHA256.hash(body).hexString)
        }
        return names
    }

    func requests(_ bodies: [String: Data]) -> Int {
        bodies.keys.map { server.requestCount(URL(string: $0)!.path) }.reduce(0, +)
    }

    @Test("Two lists into one folder, one after the other: both kept under distinct names, reruns fetch nothing")
    func twoListsInTurn() throws {
        let first = try chapter("img", pages: 3, seed: 1)
        let second = try chapter("img2", pages: 3, seed: 2)
        #expect(try fetch(first.list).status == 0)
        #expect(try fetch(second.list).status == 0)
        let firstNames = try expectStored(first.bodies)
        let secondNames = try expectStored(second.bodies)
        #expect(firstNames == ["01.png", "02.png", "03.png"])
        #expect(firstNames.isDisjoint(with: secondNames) && secondNames.count == 3)
        // Reruns of either list, in either order, download nothing and leave every file as it is.
        let before = requests(first.bodies) + requests(second.bodies)
        for list in [first.list, second.list, first.list] {
            let rerun = try fetch(list)
            #expect(rerun.status == 0)
        }
        #expect(requests(first.bodies) + requests(second.bodies) == before)
        #expect(try expectStored(first.bodies) == firstNames)
        #expect(try expectStored(second.bodies) == secondNames)
    }

    @Test("A damaged or deleted own file is fetched again under its own name; the other list's files stay")
    func ownFileReplaced() throws {
        let first = try chapter("a", pages: 2, seed: 3)
        let second = try chapter("b", pages: 2, seed: 4)
        #expect(try fetch(first.list).status == 0)
        #expect(try fetch(second.list).status == 0)
        let firstNames = try expectStored(first.bodies)
        let secondNames = try expectStored(second.bodies).sorted()
        // One of list b's files changed by a byte, the other deleted.
        let damaged = URL(fileURLWithPath: folder.path("out/\(secondNames[0])"))
        var bytes = try WholeFile.data(at: damaged)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: damaged)
        try FileManager.default.removeItem(atPath: folder.path("out/\(secondNames[1])"))
        #expect(try fetch(second.list).status == 0)
        #expect(try expectStored(second.bodies).sorted() == secondNames)
        #expect(try expectStored(first.bodies) == firstNames)
    }

    @Test("Two lists fetched into one folder at once: every file holds its own URL's bytes")
    func twoListsAtOnce() throws {
        let count = 40
        let first = try chapter("ch1", pages: count, seed: 5)
        let second = try chapter("ch2", pages: count, seed: 6)
        let processes = try [first.list, second.list].map { list in
            let process = Process()
            process.executableURL = pixpipe.url
            process.arguments = ["fetch", list, "--out", folder.path("out"), "--retries", "1", "--timeout", "10"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let firstNames = try expectStored(first.bodies)
        let secondNames = try expectStored(second.bodies)
        #expect(firstNames.count == count && secondNames.count == count && firstNames.isDisjoint(with: secondNames))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).filter {
            $0.hasSuffix(".png")
        }
        #expect(files.count == 2 * count)
        // And each list's rerun then downloads nothing.
        let before = requests(first.bodies) + requests(second.bodies)
        #expect(try fetch(first.list).status == 0)
        #expect(try fetch(second.list).status == 0)
        #expect(requests(first.bodies) + requests(second.bodies) == before)
    }

    @Test("A file another program put in the folder is never replaced: the item takes the next free name")
    func foreignFileKept() throws {
        let pages = try chapter("c", pages: 1, seed: 7)
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        let foreign = Data("my own notes, not an image\n".utf8)
        try foreign.write(to: URL(fileURLWithPath: folder.path("out/01.png")))
        #expect(try fetch(pages.list).status == 0)
        #expect(try WholeFile.data(at: URL(fileURLWithPath: folder.path("out/01.png"))) == foreign)
        #expect(try expectStored(pages.bodies) == ["01-2.png"])
        // A rerun keeps the name and fetches nothing.
        let before = requests(pages.bodies)
        #expect(try fetch(pages.list).status == 0)
        #expect(requests(pages.bodies) == before)
        #expect(try WholeFile.data(at: URL(fileURLWithPath: folder.path("out/01.png"))) == foreign)
    }

    @Test("A symbolic link under the wanted name is left as it is, and nothing is written through it")
    func symlinkKept() throws {
        let pages = try chapter("d", pages: 1, seed: 8)
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        let target = Data("outside\n".utf8)
        try target.write(to: URL(fileURLWithPath: folder.path("outside.txt")))
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("out/01.png"), withDestinationPath: "../outside.txt")
        #expect(try fetch(pages.list).status == 0)
        #expect(try WholeFile.data(at: URL(fileURLWithPath: folder.path("outside.txt"))) == target)
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("out/01.png")) == "../outside.txt")
        #expect(try expectStored(pages.bodies) == ["01-2.png"])
    }

    @Test("Kept originals are reserved: photo.png's original is not overwritten by a photo.original.png URL")
    func keptOriginalReserved() throws {
        let photo = try Self.page(11)
        let other = try Self.page(12)
        server.route("/p/photo.png", .respond(headers: ["Content-Type": "image/png"], body: Array(photo)))
        server.route("/q/photo.original.png", .respond(headers: ["Content-Type": "image/png"], body: Array(other)))
        let urls = [server.url("/p/photo.png").absoluteString, server.url("/q/photo.original.png").absoluteString]
        let list = try folder.write(Data((urls.joined(separator: "\n") + "\n").utf8), to: "list.txt")
        let options = ["--convert", "png", "--keep-original"]
        #expect(try fetch(list, options).status == 0)
        let records = try latest()
        let first = try #require(records[urls[0]]?.name)
        let second = try #require(records[urls[1]]?.name)
        #expect(first == "photo.png")
        #expect(second != "photo.original.png" && second != first)
        // Each item's kept original holds its own bytes.
        let original = FileNameSanitizer.stem(of: first) + ".original.png"
        #expect(try WholeFile.data(at: URL(fileURLWithPath: folder.path("out/\(original)"))) == photo)
        let secondOriginal = FileNameSanitizer.stem(of: second) + ".original.png"
        #expect(try WholeFile.data(at: URL(fileURLWithPath: folder.path("out/\(secondOriginal)"))) == other)
        // A later list with a photo.original.png of its own does not take the kept original either.
        server.route("/r/photo.original.png", .respond(headers: ["Content-Type": "image/png"], body: Array(other)))
        let later = try folder.write(
            Data((server.url("/r/photo.original.png").absoluteString + "\n").utf8), to: "r.txt")
        #expect(try fetch(later).status == 0)
        #expect(try WholeFile.data(at: URL(fileURLWithPath: folder.path("out/\(original)"))) == photo)
    }

    @Test("Shards of one list, run in turn into one folder, give the same names as one unsharded run")
    func shardsAgree() throws {
        // Names that collide within the list, so the suffixes depend on list order.
        var lines: [String] = []
        var bodies: [String: Data] = [:]
        for number in 1...8 {
            let path = "/s\(number)/page.png"
            let body = try Self.page(100 + number)
            server.route(path, .respond(headers: ["Content-Type": "image/png"], body: Array(body)))
            bodies[server.url(path).absoluteString] = body
            lines.append(server.url(path).absoluteString)
        }
        let list = try folder.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: "s.txt")
        let whole = try pixpipe.run(["fetch", list, "--out", folder.path("whole")])
        #expect(whole.status == 0)
        for shard in ["0/2", "1/2"] { #expect(try fetch(list, ["--shard", shard]).status == 0) }
        let sharded = try latest()
        let data = try WholeFile.data(at: URL(fileURLWithPath: folder.path("whole/manifest.jsonl")))
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let record = try JSONDecoder().decode(ManifestRecord.self, from: Data(line))
            #expect(sharded[record.url]?.name == record.name)
        }
        #expect(try expectStored(bodies).count == lines.count)
    }

    @Test("A folder where two lists overwrote one file (before names were reserved) comes apart on the next runs")
    func contestedNameComesApart() throws {
        let first = try chapter("old1", pages: 1, seed: 9)
        let second = try chapter("old2", pages: 1, seed: 10)
        // As the earlier versions left it: two `ok` lines for `01.png`, the file holding the second list's bytes.
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        var manifest = Data()
        for (url, body) in [first.bodies.first!, second.bodies.first!] {
            manifest.append(
                ManifestRecord(
                    url: url, name: "01.png", status: .ok, bytes: body.count, sha256: SHA256.hash(body).hexString
                ).jsonLine)
        }
        try manifest.write(to: URL(fileURLWithPath: folder.path("out/manifest.jsonl")))
        try second.bodies.first!.value.write(to: URL(fileURLWithPath: folder.path("out/01.png")))
        #expect(try fetch(first.list).status == 0)
        #expect(try fetch(second.list).status == 0)
        let firstNames = try expectStored(first.bodies)
        let secondNames = try expectStored(second.bodies)
        #expect(firstNames.isDisjoint(with: secondNames))
        #expect(secondNames == ["01.png"])
        let before = requests(first.bodies) + requests(second.bodies)
        #expect(try fetch(first.list).status == 0)
        #expect(try fetch(second.list).status == 0)
        #expect(requests(first.bodies) + requests(second.bodies) == before)
    }

    @Test("Moving past a foreign file, the item skips names other URLs' records hold, even with their file gone")
    func suffixSkipsRecordedNames() throws {
        let pages = try chapter("e", pages: 1, seed: 13)
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        let foreign = Data("someone else's\n".utf8)
        try foreign.write(to: URL(fileURLWithPath: folder.path("out/01.png")))
        // Another URL stored `01-2.png`; its file is missing just now (its next run fetches it back there).
        let other = ManifestRecord(
            url: "https://elsewhere.example/01.png", name: "01-2.png", status: .ok, bytes: 3,
            sha256: String(repeating: "0", count: 64))
        try other.jsonLine.write(to: URL(fileURLWithPath: folder.path("out/manifest.jsonl")))
        #expect(try fetch(pages.list).status == 0)
        #expect(try expectStored(pages.bodies) == ["01-3.png"])
        #expect(try WholeFile.data(at: URL(fileURLWithPath: folder.path("out/01.png"))) == foreign)
    }

}
