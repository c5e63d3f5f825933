import Foundation
import Testing

@testable import PixpipeImage

/// Thumbnails of files, which the decoders read through the descriptor in pieces instead of whole.
@Suite("Thumbnail: files read in pieces")
struct ThumbnailFileTests {
    /// A folder removed when the test's value goes away.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pixpipe-thumbnail-file-\(UUID())")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }

        /// Writes `bytes` to `name` and returns the path.
        func write(_ bytes: Data, to name: String) throws -> String {
            let path = url.appendingPathComponent(name).path
            try bytes.write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    /// Files of a few hundred kilobytes, several times the decoders' 64 KiB read buffer.
    static func encodedSamples() throws -> [(name: String, bytes: Data)] {
        let noise = TestImages.noise(width: 320, height: 240, format: .rgb8)
        return [
            ("plain.png", try noise.encoded(as: .png)),
            ("interlaced.png", try noise.encoded(as: .png(PNGEncodeOptions(interlaced: true)))),
            ("baseline.jpg", try noise.encoded(as: .jpeg(JPEGEncodeOptions(quality: 95)))),
            ("progressive.jpg", try noise.encoded(as: .jpeg(JPEGEncodeOptions(quality: 95, progressive: true)))),
        ]
    }

    @Test func aFileGivesTheSamePixelsAsItsBytes() throws {
        let folder = try Folder()
        let thumbnailer = Thumbnailer(.init(size: .box(100)))
        for sample in try Self.encodedSamples() {
            let path = try folder.write(sample.bytes, to: sample.name)
            let fromFile = try thumbnailer.thumbnail(contentsOfFile: path)
            let fromBytes = try thumbnailer.thumbnail(data: sample.bytes)
            #expect(fromFile.width == 100 && fromFile.height == 75, "\(sample.name)")
            #expect(fromFile.pixels == fromBytes.pixels, "\(sample.name)")
        }
    }

    @Test func aTruncatedFileFailsWhenStrictAndWarnsWhenLenient() throws {
        let folder = try Folder()
        for sample in try Self.encodedSamples() {
            let path = try folder.write(sample.bytes.prefix(sample.bytes.count / 2), to: sample.name)
            #expect {
                try Thumbnailer(.init(size: .box(50))).thumbnail(contentsOfFile: path)
            } throws: { error in
                guard case .decoding(let decoding) = error as? ImageProcessingError else { return false }
                switch decoding {
                case .truncated, .corrupt: return true
                default: return false
                }
            }
            let lenientOptions = ThumbnailOptions(size: .box(50), strictness: .lenient)
            let lenient = try Thumbnailer(lenientOptions).thumbnail(contentsOfFile: path)
            let fromBytes = try Thumbnailer(lenientOptions).thumbnail(data: sample.bytes.prefix(sample.bytes.count / 2))
            #expect(lenient.width == 50 && !lenient.metadata.warnings.isEmpty, "\(sample.name)")
            #expect(lenient.pixels == fromBytes.pixels, "\(sample.name)")
        }
    }

    @Test func unreadableOversizedAndForeignFilesAreTypedErrors() throws {
        let folder = try Folder()
        let missing = folder.url.appendingPathComponent("missing.png").path
        #expect {
            try Thumbnailer().thumbnail(contentsOfFile: missing)
        } throws: { error in
            guard case .decoding(.unreadable(let path, _)) = error as? ImageProcessingError else { return false }
            return path == missing
        }
        #expect {
            try Thumbnailer().thumbnail(contentsOfFile: folder.url.path)
        } throws: { error in
            guard case .decoding(.unreadable) = error as? ImageProcessingError else { return false }
            return true
        }
        let png = try folder.write(try Self.encodedSamples()[0].bytes, to: "big.png")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: png)[.size] as? Int)
        #expect(throws: ImageProcessingError.decoding(.inputTooLarge(bytes: size, limit: 1000))) {
            try Thumbnailer(.init(byteLimit: 1000)).thumbnail(contentsOfFile: png)
        }
        let text = try folder.write(Data("not an image".utf8), to: "notes.png")
        #expect(throws: ImageProcessingError.decoding(.unsupportedFormat(recognized: .text))) {
            try Thumbnailer().thumbnail(contentsOfFile: text)
        }
    }
}
