import Foundation
import PixpipeImage
import Testing

/// The error type names and case spellings that were folded into ``ImageProcessingError`` still compile,
/// and build the cases with the same names.
@Suite("Former error spellings")
struct ErrorSpellingTests {
    @Test("The former processing types and cases build ImageProcessingError's cases, with the same names")
    @available(*, deprecated, message: "uses the deprecated spellings on purpose")
    func formerProcessingSpellings() throws {
        #expect(GeometryError.self == ImageProcessingError.self)
        #expect(ThumbnailError.self == ImageProcessingError.self)
        #expect(ImageColorError.self == ImageProcessingError.self)
        #expect(ProcessingError.self == ImageProcessingError.self)
        let size = ThumbnailOptions.Size.box(0)
        #expect(ThumbnailError.invalidSize(size) == .invalidThumbnailSize(size))
        #expect(ThumbnailError.invalidSize(size).shortName == "invalid-thumbnail-size")
        #expect(ImageColorError.invalidProfile(reason: "x") == .invalidColorProfile(reason: "x"))
        #expect(ImageColorError.invalidProfile(reason: "x").shortName == "invalid-color-profile")
        #expect(
            ImageColorError.unsupportedProfile(colorSpace: "CMYK", reason: "x")
                == .unsupportedColorProfile(colorSpace: "CMYK", reason: "x"))
        #expect(ImageColorError.transformFailed(reason: "x").shortName == "color-transform-failed")
        let invalid = ImageProcessingError.invalidSize(width: 0, height: 1)
        #expect(ImageProcessingError.geometry(invalid) == invalid)
        #expect(ImageProcessingError.processing(invalid) == invalid)
        #expect(
            ImageProcessingError.thumbnail(.sourceTooLarge(width: 9, height: 9, limit: 8)).shortName
                == "too-large-source")
        #expect(ImageProcessingError.color(.colorTransformFailed(reason: "x")).shortName == "color-transform-failed")
        // A caller that caught the former type by name still catches what the step throws.
        let image = Image(width: 4, height: 3, pixelFormat: .gray8, pixels: [UInt8](repeating: 9, count: 12))
        #expect(throws: GeometryError.self) { try image.resized(width: 0, height: 3) }
        #expect(throws: ThumbnailError.invalidSize(size)) {
            try Thumbnailer(ThumbnailOptions(size: size)).thumbnail(of: image)
        }
    }
}
