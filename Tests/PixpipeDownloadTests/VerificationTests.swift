import Foundation
import PixpipeLocking
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// How the downloader proves a body complete before storing it, and when it flushes what it stored.
@Suite("Verification and flushing")
struct VerificationTests {
    /// A photo-like JPEG large enough to have many MCU rows and restart-free entropy data.
    static let photo = Bodies.jpeg(width: 320, height: 200, seed: 7)

    /// Whether `body` passes the downloader's verification when stored as it came.
    private static func storedAsIs(_ body: [UInt8]) -> Result<ProcessedImage, DownloadError> {
        Result { () throws(DownloadError) in
            try ProcessedImage.make(
                from: Data(body), url: URL(fileURLWithPath: "/x.jpg"), processing: [], outputEncoding: nil,
                keepsOriginal: false,
                decodeOptions: DecodeOptions())
        }
    }

    /// Whether a strict decode at full size accepts `body`.
    private static func fullDecodeAccepts(_ body: [UInt8]) -> Bool {
        (try? Image(data: Data(body))) != nil
    }

    @Test("The 1/8 JPEG check rejects every truncation a full decode rejects")
    func reducedCheckSeesEveryTruncation() {
        let body = Self.photo
        var rejected = 0
        for length in stride(from: 2, to: body.count - 2, by: max(1, body.count / 97)) {
            let cut = Array(body.prefix(length))
            let verdict = Self.storedAsIs(cut)
            #expect(
                (try? verdict.get()) == nil, "a body cut to \(length) of \(body.count) bytes passed verification")
            #expect(!Self.fullDecodeAccepts(cut))
            rejected += 1
        }
        #expect(rejected > 90)
    }

    @Test("The 1/8 JPEG check agrees with a full decode on damaged entropy data")
    func reducedCheckAgreesOnDamage() throws {
        let body = Self.photo
        // The entropy-coded data starts after the start-of-scan segment (FF DA, then its length).
        let scan = try #require(body.indices.dropLast().first { body[$0] == 0xFF && body[$0 + 1] == 0xDA })
        let dataStart = scan + 2 + (Int(body[scan + 2]) << 8 | Int(body[scan + 3]))
        var disagreements: [Int] = []
        var rejectedByBoth = 0
        for offset in stride(from: dataStart, to: body.count - 2, by: 29) {
            var damaged = body
            damaged[offset] ^= 0xA5
            let full = Self.fullDecodeAccepts(damaged)
            let reduced = (try? Self.storedAsIs(damaged).get()) != nil
            if full != reduced { disagreements.append(offset) }
            if !full && !reduced { rejectedByBoth += 1 }
        }
        #expect(disagreements.isEmpty, "verdicts differ for damage at offsets \(disagreements)")
        #expect(rejectedByBoth > 0, "no damage was detected at all: the test would prove nothing")
    }

    @Test("A verified JPEG reports its full size, and the pixel limit still applies to that size")
    func reducedCheckKeepsFullSizeAndLimit() throws {
        let stored = try Self.storedAsIs(Self.photo).get()
        #expect(stored.width == 320 && stored.height == 200 && stored.data == Data(Self.photo))
        var strict = DecodeOptions()
        strict.pixelLimit = 320 * 200 - 1
        let limited = Result { () throws(DownloadError) in
            try ProcessedImage.make(
                from: Data(Self.photo), url: URL(fileURLWithPath: "/x.jpg"), processing: [], outputEncoding: nil,
                keepsOriginal: false,
                decodeOptions: strict)
        }
        #expect(throws: DownloadError.self) { try limited.get() }
        if case .failure(let error) = limited { #expect(error.shortName == "too-large-image") }
    }

    @Test("A JPEG with junk between header segments is stored ok at once, its benign warning in the manifest")
    func benignWarningIsStoredWithoutRetry() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        var junky = Self.photo
        let quantization = try #require((2..<junky.count - 1).first { junky[$0] == 0xFF && junky[$0 + 1] == 0xDB })
        junky.insert(contentsOf: [UInt8](repeating: 0x42, count: 5), at: quantization)
        server.route("/junk.jpg", .respond(body: junky))
        server.route("/cut.jpg", .respond(body: Array(Self.photo.prefix(Self.photo.count / 2))))
        let found = records(
            await collectEvents(
                Downloader(options: testOptions(folder)),
                [DownloadItem(url: server.url("/junk.jpg")), DownloadItem(url: server.url("/cut.jpg"))]))
        #expect(found[0]?.status == .ok && found[0]?.attempts == 1)
        #expect(found[0]?.warnings?.count == 1)
        #expect(found[0]?.warnings?.first?.hasPrefix("jpeg-extraneous-bytes: ") == true)
        #expect(server.requestCount("/junk.jpg") == 1)
        #expect(found[1]?.status == .failed && found[1]?.errorKind == "truncated-image")
        #expect(found[1]?.warnings == nil)
        #expect(server.requestCount("/cut.jpg") == 3)
    }

    @Test("A truncated JPEG fetched for a thumbnail is retried and reported as truncated")
    func truncatedThumbnailSource() async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        server.route("/cut.jpg", .respond(body: Array(Self.photo.prefix(Self.photo.count * 2 / 3))))
        var options = testOptions(folder)
        options.processing = [.thumbnail(ThumbnailOptions(size: .box(32)))]
        options.outputEncoding = .jpeg
        let found = records(
            await collectEvents(Downloader(options: options), [DownloadItem(url: server.url("/cut.jpg"))]))
        #expect(found[0]?.status == .failed && found[0]?.errorKind == "truncated-image")
        #expect(server.requestCount("/cut.jpg") == 3)
        #expect(folder.imageNames().isEmpty)
    }

    @Test("Files are flushed one by one only with .eachFile", arguments: [FileSync.atEnd, .eachFile])
    func fileSyncReachesTheWriter(sync: FileSync) async throws {
        let server = try TestHTTPServer()
        let folder = TemporaryFolder()
        for index in 0..<3 { server.route("/\(index).png", .respond(body: Bodies.png(seed: index))) }
        let writer = RecordingWriter()
        var options = testOptions(folder)
        options.fileSync = sync
        let items = (0..<3).map { DownloadItem(url: server.url("/\($0).png")) }
        let found = records(await collectEvents(Downloader(options: options, writer: writer), items))
        #expect(found.values.allSatisfy { $0.status == .ok } && found.count == 3)
        #expect(writer.flushFlags == Array(repeating: sync == .eachFile, count: 3))
        #expect(folder.imageNames() == ["0.png", "1.png", "2.png"])
    }
}

/// A writer that stores files and remembers whether each was to be flushed.
final class RecordingWriter: DownloadFileWriting {
    private let flags = Locked<[Bool]>([])

    var flushFlags: [Bool] { flags.withLock { $0 } }

    func write(_ data: Data, named name: String, in directory: URL, flushes: Bool) throws(DownloadError) {
        flags.withLock { $0.append(flushes) }
        try AtomicFileWriter().write(data, named: name, in: directory, flushes: flushes)
    }
}

extension VerificationTests {
    @Test("Without decoding, a body with a whole header is stored as it came, sized from its header")
    func headerOnlyVerification() throws {
        let cut = Array(Self.photo.prefix(Self.photo.count / 2))
        let stored = try Result { () throws(DownloadError) in
            try ProcessedImage.make(
                from: Data(cut), url: URL(fileURLWithPath: "/x.jpg"), processing: [], outputEncoding: nil,
                keepsOriginal: false,
                decodeOptions: DecodeOptions(), verifiesByDecoding: false)
        }.get()
        #expect(stored.width == 320 && stored.height == 200 && stored.data == Data(cut))
        #expect((try? Self.storedAsIs(cut).get()) == nil)
    }
}

extension VerificationTests {
    /// `jpeg` with coded bits (no 0xFF, so the markers stay whole) overwritten in the middle of its largest
    /// scan, a luma AC scan that a 1/8 thumbnail does not read.
    static func damagingLargestScan(_ jpeg: [UInt8]) -> [UInt8] {
        var largest = 0..<0
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF, jpeg[position + 1] != 0xD9 {
            var end = position + 2 + (Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3]))
            if jpeg[position + 1] == 0xDA {
                let start = end
                while end + 1 < jpeg.count,
                    jpeg[end] != 0xFF || [0x00, 0xD0, 0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7].contains(jpeg[end + 1])
                {
                    end += 1
                }
                if end - start > largest.count { largest = start..<end }
            }
            position = end
        }
        var damaged = jpeg
        for index in largest.lowerBound + largest.count / 4..<largest.lowerBound + largest.count / 2 {
            damaged[index] = UInt8(truncatingIfNeeded: index &* 37) & 0x7F
        }
        return damaged
    }

    @Test("A kept original is proven whole by its thumbnail's decode, even where the thumbnail would not look")
    func keptOriginalIsDecodedWhole() throws {
        let damaged = Self.damagingLargestScan(Bodies.progressiveJPEG(width: 768, height: 512))
        let thumbnail: [any ImageProcessing] = [.thumbnail(ThumbnailOptions(size: .box(32)))]
        let make = { (keepsOriginal: Bool) in
            Result { () throws(DownloadError) in
                try ProcessedImage.make(
                    from: Data(damaged), url: URL(fileURLWithPath: "/x.jpg"), processing: thumbnail,
                    outputEncoding: .jpeg, keepsOriginal: keepsOriginal, decodeOptions: DecodeOptions())
            }
        }
        // The thumbnail alone is stored: its pixels are the undamaged file's (the damaged scan is never read).
        let alone = try make(false).get()
        #expect(alone.width == 32 && alone.height == 21 && alone.original == nil)
        // With the original kept, its damage is found and nothing is stored.
        #expect(throws: DownloadError.self) { try make(true).get() }
    }
}
