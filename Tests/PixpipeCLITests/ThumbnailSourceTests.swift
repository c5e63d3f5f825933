import Foundation
import Pixpipe
import Testing

/// `pixpipe thumbnail` across runs: an output name stays with the source it was made from.
@Suite("pixpipe thumbnail: outputs stay with their sources across runs", .serialized)
struct ThumbnailSourceTests {
    let tool: PixpipeExecutable
    let input: TemporaryDirectory
    let output: TemporaryDirectory

    init() throws {
        tool = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        input = try TemporaryDirectory()
        output = try TemporaryDirectory()
    }

    /// A photo stand-in whose pixels depend on `seed`, so each one's thumbnail differs.
    static func photo(_ seed: Int) throws -> Data {
        var image = Image(width: 64, height: 48, pixelFormat: .rgb8)
        for y in 0..<48 {
            for x in 0..<64 {
                for channel in 0..<3 {
                    image[x: x, y: y, channel: channel] = (x * (seed + 1) + y * 3 * seed + channel * 40) % 256
                }
            }
        }
        return try image.encoded(as: .jpeg)
    }

    func addPhoto(_ folder: String, seed: Int) throws {
        try FileManager.default.createDirectory(
            at: input.url.appendingPathComponent("dcim/\(folder)"), withIntermediateDirectories: true)
        try input.write(try Self.photo(seed), to: "dcim/\(folder)/IMG_0001.JPG")
    }

    func thumbnail(_ extra: [String] = []) throws -> PixpipeExecutable.Result {
        try tool.run(["thumbnail", input.path("dcim"), "--out", output.url.path, "--size", "32", "--json"] + extra)
    }

    /// The output of each input (by its folder name) from a `--json` run's records.
    func outputs(_ result: PixpipeExecutable.Result) throws -> [String: (output: String, skipped: Bool)] {
        var outputs: [String: (output: String, skipped: Bool)] = [:]
        for line in result.outputLines {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let input = try #require(record["input"] as? String)
            let folder = URL(fileURLWithPath: input).deletingLastPathComponent().lastPathComponent
            let output = try #require(record["output"] as? String)
            let relative = String(output.dropFirst(self.output.url.path.count + 1))
            outputs[folder] = (relative, record["skipped"] as? Bool ?? false)
        }
        return outputs
    }

    @Test("Subfolders are kept: a new folder's IMG_0001 gets its own output; the others are skipped as theirs")
    func newSourceGetsItsOwnFolder() throws {
        try addPhoto("100APPLE", seed: 1)
        try addPhoto("101APPLE", seed: 2)
        let first = try thumbnail()
        #expect(first.status == 0)
        let before = try outputs(first)
        #expect(before["100APPLE"]?.output == "100APPLE/IMG_0001.jpg")
        #expect(before["101APPLE"]?.output == "101APPLE/IMG_0001.jpg")
        let names = ["100APPLE/IMG_0001.jpg", "101APPLE/IMG_0001.jpg"]
        let thumbnails = try Dictionary(
            uniqueKeysWithValues: names.map { ($0, try WholeFile.data(at: URL(fileURLWithPath: output.path($0)))) })

        try addPhoto("099APPLE", seed: 3)
        let second = try thumbnail()
        #expect(second.status == 0)
        #expect(second.errors.contains("1 thumbnail, 0 failed, 2 skipped"))
        let after = try outputs(second)
        #expect(after["100APPLE"]?.output == "100APPLE/IMG_0001.jpg" && after["100APPLE"]?.skipped == true)
        #expect(after["101APPLE"]?.output == "101APPLE/IMG_0001.jpg" && after["101APPLE"]?.skipped == true)
        let new = try #require(after["099APPLE"])
        #expect(new.output == "099APPLE/IMG_0001.jpg" && !new.skipped)
        // The earlier thumbnails are as they were, and the three are three different images.
        for (name, data) in thumbnails {
            #expect(try WholeFile.data(at: URL(fileURLWithPath: output.path(name))) == data)
        }
        let all = try (names + ["099APPLE/IMG_0001.jpg"]).map {
            try WholeFile.data(at: URL(fileURLWithPath: output.path($0)))
        }
        #expect(Set(all).count == 3)

        // --overwrite redoes each source's own output, under the same names.
        let redone = try thumbnail(["--overwrite"])
        #expect(redone.status == 0 && redone.errors.contains("3 thumbnails, 0 failed"))
        let redoneOutputs = try outputs(redone)
        #expect(redoneOutputs.mapValues(\.output) == after.mapValues(\.output))
    }

    @Test("With {dir} in the template, the subfolder's name keeps flat names apart")
    func directoryPlaceholder() throws {
        try addPhoto("100APPLE", seed: 1)
        try addPhoto("101APPLE", seed: 2)
        let result = try thumbnail(["--name", "{dir}_{name}.{ext}"])
        #expect(result.status == 0)
        let names = try outputs(result).mapValues(\.output)
        #expect(names == ["100APPLE": "100APPLE/100APPLE_IMG_0001.jpg", "101APPLE": "101APPLE/101APPLE_IMG_0001.jpg"])
    }

    @Test("An output folder inside the input folder is never read as input")
    func outputInsideInputIsLeftOut() throws {
        try addPhoto("100APPLE", seed: 1)
        let inside = input.path("dcim/thumbs")
        for _ in 0..<2 {
            let result = try tool.run(["thumbnail", input.path("dcim"), "--out", inside, "--size", "32", "--json"])
            #expect(result.status == 0)
            #expect(result.outputLines.count == 1)
            #expect(!result.outputText.contains("thumbs/100APPLE/IMG_0001.jpg\",\"output"))
        }
        #expect(FileManager.default.fileExists(atPath: input.path("dcim/thumbs/100APPLE/IMG_0001.jpg")))
        #expect(!FileManager.default.fileExists(atPath: input.path("dcim/thumbs/thumbs")))
        // The same from inside the input folder, named relatively.
        let relative = try tool.run(
            ["thumbnail", ".", "--out", "thumbs", "--size", "32", "--json"],
            in: input.url.appendingPathComponent("dcim"))
        #expect(relative.status == 0 && relative.outputLines.count == 1)
    }

    @Test("A file another program put under the output name is left alone once the folder has records")
    func foreignOutputKept() throws {
        try addPhoto("100APPLE", seed: 1)
        #expect(try thumbnail().status == 0)
        let foreign = Data("not a thumbnail\n".utf8)
        try foreign.write(to: URL(fileURLWithPath: output.path("100APPLE/IMG_0002.jpg")))
        try input.write(try Self.photo(4), to: "dcim/100APPLE/IMG_0002.JPG")
        let second = try thumbnail()
        #expect(second.status == 0)
        #expect(try WholeFile.data(at: URL(fileURLWithPath: output.path("100APPLE/IMG_0002.jpg"))) == foreign)
        let outputs = second.outputLines.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["output"] as? String
        }
        #expect(outputs.contains(output.path("100APPLE/IMG_0002-2.jpg")))
    }

    @Test("Two thumbnail runs into one folder at once: each source's output holds its own thumbnail")
    func twoRunsAtOnce() throws {
        try addPhoto("A", seed: 5)
        try addPhoto("B", seed: 6)
        // Each alone first, into folders of their own: the bytes each thumbnail must have.
        var expected: [String: Data] = [:]
        for folder in ["A", "B"] {
            let own = try TemporaryDirectory()
            let result = try tool.run([
                "thumbnail", input.path("dcim/\(folder)"), "--out", own.url.path, "--size", "32",
            ])
            #expect(result.status == 0)
            expected[folder] = try WholeFile.data(at: URL(fileURLWithPath: own.path("IMG_0001.jpg")))
        }
        #expect(expected["A"] != expected["B"])
        let scratch = try TemporaryDirectory()
        let processes = try ["A", "B"].map { folder in
            let process = Process()
            process.executableURL = tool.url
            process.arguments = [
                "thumbnail", input.path("dcim/\(folder)"), "--out", output.url.path, "--size", "32", "--json",
            ]
            _ = FileManager.default.createFile(atPath: scratch.path(folder), contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path(folder)))
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (folder, process)
        }
        var outputs: Set<String> = []
        for (folder, process) in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let line = try #require(
                String(decoding: try WholeFile.data(at: URL(fileURLWithPath: scratch.path(folder))), as: UTF8.self)
                    .split(separator: "\n").first)
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let path = try #require(record["output"] as? String)
            outputs.insert(path)
            #expect(try WholeFile.data(at: URL(fileURLWithPath: path)) == expected[folder])
        }
        #expect(outputs.count == 2)
    }

}
