import Foundation
import PixpipeTestSupport
import Testing

/// The ComicDownloader sample's `--cbz`: its thumbnails packed into one comic book archive.
@Suite(
    "comic-downloader --cbz", .serialized,
    .enabled(if: PixpipeExecutable.comicDownloader != nil, "comic-downloader is not built"))
struct ComicDownloaderBookTests {
    @Test("--cbz writes OUT_DIR/comics.cbz: the thumbnails in comic order, ComicInfo.xml naming the site")
    func book() throws {
        let sample = try #require(PixpipeExecutable.comicDownloader)
        let server = try TestHTTPServer()
        let folder = try TemporaryDirectory()
        let png = Array(try TestImages.png())
        for number in 1...12 {
            let json = #"{"num":\#(number),"title":"Panel \#(number)","img":"/img/\#(number).png","alt":"a"}"#
            server.route("/\(number)/info.0.json", .json(json))
            if number == 12 { server.route("/info.0.json", .json(json)) }
            server.route("/img/\(number).png", .respond(headers: ["Content-Type": "image/png"], body: png))
        }
        let result = try sample.run(["--cbz", server.baseURL.absoluteString, folder.path("comics")])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.outputText.contains("comic book: 12 pages"))
        let book = try FetchComicBookTests.read(folder.path("comics/comics.cbz"))
        #expect(book.names == (1...12).map { String(format: "%03d.jpg", $0) } + ["ComicInfo.xml"])
        #expect(book.info["Series"] == "127.0.0.1" && book.info["PageCount"] == "12")
        // Page 10 is comic #10's thumbnail, not the tenth name in text order ("10-..." sorts before "2-...").
        let thumbnail = try Data(contentsOf: URL(fileURLWithPath: folder.path("comics/10-Panel 10.jpg")))
        #expect(book.pages["010.jpg"].flatMap { Data(base64Encoded: $0) } == thumbnail)
    }
}
