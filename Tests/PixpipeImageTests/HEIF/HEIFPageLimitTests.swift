import Foundation
import Testing

@testable import PixpipeImage

/// The limits on a HEIF file's top-level images read as pages: each page at its own size, and their pixels
/// summed, not the primary's size times the page count. The files are made by heif-enc from two PNGs of
/// different sizes (the first becomes the primary), since the corpus's two-image files hold equal sizes.
@Suite("HEIF pages of different sizes under the limits")
struct HEIFPageLimitTests {
    /// 64 x 48: 3,072 pixels.
    static let small = (width: 64, height: 48)
    /// 320 x 240: 76,800 pixels.
    static let large = (width: 320, height: 240)
    /// Both pages together: 79,872 pixels.
    static let sum = 64 * 48 + 320 * 240

    /// A HEIC whose top-level images have `sizes`, in that order, the first one primary.
    static func pages(_ sizes: [(width: Int, height: Int)]) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heif-pages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var inputs: [String] = []
        for (index, size) in sizes.enumerated() {
            let png = folder.appendingPathComponent("page\(index).png")
            try SyntheticImages.smooth(width: size.width, height: size.height, format: .rgb8).encoded(as: .png)
                .write(to: png)
            inputs.append(png.path)
        }
        let heic = folder.appendingPathComponent("pages.heic")
        try HEIFThumbnailTests.runHeifEnc(["-q", "50", "-o", heic.path] + inputs)
        return try Data(contentsOf: heic)
    }

    /// The sizes of every page `data` holds, read with `options`.
    static func pageSizes(_ data: Data, _ options: DecodeOptions) throws -> [[Int]] {
        try AnimationReader(data: data, options: options).allFrames().map { [$0.image.width, $0.image.height] }
    }

    @Test(
        "a small primary does not hide a large second page from the total",
        .enabled(if: FileManager.default.isExecutableFile(atPath: HEIFThumbnailTests.heifEnc)))
    func smallPrimaryFirst() throws {
        let data = try Self.pages([Self.small, Self.large])
        // The primary's size times two (6,144) is under this limit; the pages' real sum is not.
        let under = DecodeOptions(animationPixelLimit: Self.sum - 1)
        #expect(
            throws: ImageDecodingError.animationTooLarge(
                width: Self.small.width, height: Self.small.height, frames: 2, limit: Self.sum - 1)
        ) { try AnimationReader(data: data, options: under) }
        #expect(throws: ImageDecodingError.self) { try HEIFCodec().frameDecoder(data, options: under) }
        // At the sum exactly, both pages decode at their own sizes.
        let enough = DecodeOptions(animationPixelLimit: Self.sum)
        #expect(try Self.pageSizes(data, enough) == [[64, 48], [320, 240]])
        // The still image is the primary alone: the pages' limit does not apply to it.
        #expect(try Image(data: data, options: under).width == Self.small.width)
    }

    @Test(
        "a large primary with a small second page is held to the pages' real sum",
        .enabled(if: FileManager.default.isExecutableFile(atPath: HEIFThumbnailTests.heifEnc)))
    func largePrimaryFirst() throws {
        let data = try Self.pages([Self.large, Self.small])
        // The primary's size times two (153,600) would be over this limit; the real sum is not.
        let limit = DecodeOptions(animationPixelLimit: Self.sum)
        #expect(try Self.pageSizes(data, limit) == [[320, 240], [64, 48]])
        #expect(throws: ImageDecodingError.self) {
            try AnimationReader(data: data, options: DecodeOptions(animationPixelLimit: Self.sum - 1))
        }
    }

    @Test(
        "every page is checked against the pixel limit before any page is decoded",
        .enabled(if: FileManager.default.isExecutableFile(atPath: HEIFThumbnailTests.heifEnc)))
    func pixelLimitPerPage() throws {
        let data = try Self.pages([Self.small, Self.large])
        let options = DecodeOptions(pixelLimit: Self.large.width * Self.large.height - 1)
        #expect(
            throws: ImageDecodingError.tooLarge(
                width: Self.large.width, height: Self.large.height, limit: Self.large.width * Self.large.height - 1)
        ) { try AnimationReader(data: data, options: options) }
        // The primary alone is within the limit.
        #expect(try Image(data: data, options: options).width == Self.small.width)
    }
}
