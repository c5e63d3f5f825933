import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

#if canImport(Glibc)
    import Glibc
#endif

/// A folder someone else touched: a link where a file is replaced, a folder named like a leftover.
@Suite("Atomic writer and leftovers in a folder others touched")
struct FolderTrustTests {
    static let methods: [AtomicFileWriter.Method] = [.automatic, .temporaryName]

    private static func lstatus(_ path: String) throws -> stat {
        var status = stat()
        try #require(lstat(path, &status) == 0)
        return status
    }

    @Test("Replacing a link to a setuid file makes a plain file and leaves the target alone", arguments: methods)
    func linkToSetuidFile(method: AtomicFileWriter.Method) throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let target = folder.url.appendingPathComponent("program").path
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: target))
        try #require(chmod(target, 0o4755) == 0)
        let path = folder.url.appendingPathComponent("out.png").path
        try #require(symlink(target, path) == 0)

        try AtomicFileWriter.write(Data("new".utf8), to: path, method: method)

        let written = try Self.lstatus(path)
        #expect(written.st_mode & S_IFMT == S_IFREG)
        #expect(written.st_mode & 0o7000 == 0)
        #expect(folder.contents("out.png") == Array("new".utf8))
        let untouched = try Self.lstatus(target)
        #expect(untouched.st_mode & 0o7777 == 0o4755)
        #expect(folder.contents("program") == Array("#!/bin/sh\n".utf8))
    }

    @Test("A replaced setuid file keeps its permission bits, not setuid, setgid or sticky", arguments: methods)
    func setuidFileReplaced(method: AtomicFileWriter.Method) throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.url.appendingPathComponent("out.png").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        try #require(chmod(path, 0o4751) == 0)

        try AtomicFileWriter.write(Data("new".utf8), to: path, method: method)

        #expect(try Self.lstatus(path).st_mode & 0o7777 == 0o751)
    }

    @Test("Temporary names are recognised exactly")
    func temporaryNames() {
        #expect(AtomicFileWriter.isTemporary(".photo.png.part-Ab12Cd"))
        #expect(AtomicFileWriter.isTemporary(".x.part-000000"))
        for name in [
            ".photo.png.part-Ab12C", ".photo.png.part-Ab12Cde", ".photo.png.part-Ab12C_", ".part-Ab12Cd",
            "photo.png.part-Ab12Cd", ".photo.part-Ab12Cd.png", ".notes", ".git",
        ] {
            #expect(!AtomicFileWriter.isTemporary(name), "\(name)")
        }
    }

    @Test("A batch's clean-up removes leftover files and links only: a folder named like one survives")
    func leftoversCleanUp() async throws {
        let server = try TestHTTPServer()
        server.route("/a.png", .respond(body: Bodies.png()))
        let folder = TemporaryFolder()
        let outside = TemporaryFolder()
        try FileManager.default.createDirectory(at: outside.url, withIntermediateDirectories: true)
        let outsideFile = outside.url.appendingPathComponent("keep.txt")
        try Data("mine".utf8).write(to: outsideFile)
        let lookalike = folder.url.appendingPathComponent(".album.part-Ab12Cd")
        try FileManager.default.createDirectory(at: lookalike, withIntermediateDirectories: true)
        try Data("inside".utf8).write(to: lookalike.appendingPathComponent("photo.jpg"))
        try Data([1, 2, 3]).write(to: folder.url.appendingPathComponent(".b.png.part-Zz9999"))
        try #require(symlink(outsideFile.path, folder.url.appendingPathComponent(".c.png.part-Qq1234").path) == 0)
        try Data("notes".utf8).write(to: folder.url.appendingPathComponent(".notes.part-1"))

        let result = await Downloader(options: testOptions(folder)).download([DownloadItem(url: server.url("/a.png"))])

        #expect(result.ok == 1)
        #expect(folder.names() == [".album.part-Ab12Cd", ".notes.part-1", "a.png", "manifest.jsonl"])
        #expect(try Data(contentsOf: lookalike.appendingPathComponent("photo.jpg")) == Data("inside".utf8))
        #expect(try Data(contentsOf: outsideFile) == Data("mine".utf8))
    }
}
