import Foundation
import Testing

@testable import Pixpipe

/// The digest streamed as the body arrives is the digest of the bytes stored, or the bytes are hashed again.
@Suite("Streamed body digests")
struct BodyDigesterTests {
    /// Made on each use: a `static let` of `Data` is a block LeakSanitizer reports as leaked at exit.
    static var body: Data { Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }) }

    private static func feed(_ digester: BodyDigester, _ data: Data, chunk: Int) {
        digester.begin()
        data.withUnsafeBytes { raw in
            for start in stride(from: 0, to: raw.count, by: chunk) {
                digester.observe(UnsafeRawBufferPointer(rebasing: raw[start..<min(start + chunk, raw.count)]))
            }
        }
    }

    @Test(arguments: [1, 7, 16_384, 100_000])
    func chunksGiveTheWholeBodysDigest(chunk: Int) {
        let digester = BodyDigester()
        Self.feed(digester, Self.body, chunk: chunk)
        #expect(digester.digest(ofBodyOf: Self.body) == SHA256.hash(Self.body))
    }

    @Test func aNewBodyStartsAfresh() {
        let digester = BodyDigester()
        Self.feed(digester, Data("an error page".utf8), chunk: 4)
        Self.feed(digester, Self.body, chunk: 1000)
        #expect(digester.digest(ofBodyOf: Self.body) == SHA256.hash(Self.body))
    }

    @Test func bytesOtherThanTheOnesSeenAreHashedThemselves() {
        let digester = BodyDigester()
        Self.feed(digester, Self.body.prefix(500), chunk: 100)
        #expect(digester.digest(ofBodyOf: Self.body) == SHA256.hash(Self.body))
        let seenTwice = BodyDigester()
        Self.feed(seenTwice, Self.body, chunk: 1000)
        _ = seenTwice.digest(ofBodyOf: Self.body)
        #expect(seenTwice.digest(ofBodyOf: Self.body) == SHA256.hash(Self.body))
    }

    @Test func processedImagesCarryTheDigestOfWhatIsStored() throws {
        let jpeg = Data(Bodies.jpeg(width: 64, height: 48, seed: 3))
        let digester = BodyDigester()
        Self.feed(digester, jpeg, chunk: 512)
        let asIs = try ProcessedImage.make(
            from: jpeg, url: URL(fileURLWithPath: "/a.jpg"), processing: [], outputEncoding: nil, keepsOriginal: false,
            decodeOptions: DecodeOptions(), bodyDigest: digester)
        #expect(asIs.sha256 == SHA256.hash(jpeg))
        let converted = try ProcessedImage.make(
            from: jpeg, url: URL(fileURLWithPath: "/a.jpg"), processing: [], outputEncoding: .png, keepsOriginal: false,
            decodeOptions: DecodeOptions(), bodyDigest: digester)
        #expect(converted.sha256 == SHA256.hash(converted.data))
    }
}
