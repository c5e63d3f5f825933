import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// `fetch --lenient`: a damaged image whose body arrives whole is stored instead of failed, and a strict run
/// that fails one names the option.
@Suite("pixpipe fetch --lenient", .serialized)
struct FetchLenientTests {
    @Test func lenientStoresADamagedImageThatStrictFails() throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        let whole = Array(try TestImages.gradient(width: 64, height: 64, layout: .rgb).encoded(as: .jpeg))
        // The body is complete as HTTP goes (its Content-Length is its size); the JPEG in it is cut.
        let damaged = Array(whole.prefix(whole.count * 6 / 10))
        server.route("/cut.jpg", .respond(headers: ["Content-Type": "image/jpeg"], body: damaged))
        let list = try folder.write(Data((server.url("/cut.jpg").absoluteString + "\n").utf8), to: "list.txt")
        let common = ["fetch", list, "--retries", "0", "--timeout", "5", "--out"]

        let strict = try pixpipe.run(common + [folder.path("strict")])
        #expect(strict.status == 1)
        #expect(strict.errors.contains("1 damaged image failed: --lenient stores"), "\(strict.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("strict/cut.jpg")))

        let lenient = try pixpipe.run(common + [folder.path("lenient"), "--lenient"])
        #expect(lenient.status == 0 && !lenient.errors.contains("damaged image"), "\(lenient.errors)")
        #expect(FileManager.default.contents(atPath: folder.path("lenient/cut.jpg")) == Data(damaged))
    }
}
