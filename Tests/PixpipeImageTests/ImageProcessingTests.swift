import Foundation
import Testing

@testable import PixpipeImage

/// Processing values: identifiers that name every pixel-changing parameter, and compositions that run
/// their steps in order, the first from the bytes.
@Suite("Image processing values")
struct ImageProcessingTests {
    /// Thumbnail options differing from the default in one pixel-changing parameter each.
    static let thumbnailVariants: [ThumbnailOptions] = [
        ThumbnailOptions(),
        ThumbnailOptions(size: .box(128)),
        ThumbnailOptions(size: .box(width: 256, height: 128)),
        ThumbnailOptions(size: .width(256)),
        ThumbnailOptions(size: .height(256)),
        ThumbnailOptions(mode: .fill),
        ThumbnailOptions(allowsUpscaling: true),
        ThumbnailOptions(filter: .mitchell),
        ThumbnailOptions(linearLight: true),
        ThumbnailOptions(appliesOrientation: false),
        ThumbnailOptions(colorConversion: nil),
        ThumbnailOptions(colorConversion: ColorConversion(target: .displayP3)),
        ThumbnailOptions(colorConversion: ColorConversion(target: .sRGB)),
        ThumbnailOptions(
            colorConversion: ColorConversion(
                target: .sRGB, options: .init(intent: .relativeColorimetric, blackPointCompensation: true))),
        ThumbnailOptions(colorConversion: ColorConversion(target: .profile(.adobeRGB))),
    ]

    @Test("Thumbnails with distinct pixel parameters have distinct identifiers")
    func thumbnailIdentifiersAreDistinct() {
        let identifiers = Self.thumbnailVariants.map { ImageProcessors.Thumbnail($0).identifier }
        #expect(Set(identifiers).count == Self.thumbnailVariants.count)
    }

    @Test("Equal parameters give equal identifiers; limits and threads change none")
    func equalParametersGiveEqualIdentifiers() {
        for options in Self.thumbnailVariants {
            #expect(ImageProcessors.Thumbnail(options).identifier == ImageProcessors.Thumbnail(options).identifier)
        }
        var bounded = ThumbnailOptions()
        bounded.pixelLimit = 10
        bounded.sourcePixelLimit = nil
        bounded.byteLimit = 1
        bounded.maximumConcurrency = 1
        #expect(ImageProcessors.Thumbnail(bounded).identifier == ImageProcessors.Thumbnail(.init()).identifier)
        #expect(
            ImageProcessors.Thumbnail(.init()).identifier
                == "thumbnail(box:256x256,mode:fit,upscale:false,filter:lanczos3,linear:false,orient:true"
                + ",color:srgb,intent:perceptual,bpc:false,srgb-profile:false)")
    }

    @Test("Resizes differ by size, filter and linear light, not by threads")
    func resizeIdentifiers() {
        let variants: [ImageProcessors.Resize] = [
            .resize(width: 64, height: 48), .resize(width: 48, height: 64), .resize(width: 64, height: 64),
            .resize(width: 64, height: 48, filter: .box),
            .resize(width: 64, height: 48, options: .init(linearLight: true)),
        ]
        #expect(Set(variants.map(\.identifier)).count == variants.count)
        #expect(
            ImageProcessors.Resize(width: 64, height: 48, options: .init(maximumConcurrency: 1)).identifier
                == ImageProcessors.Resize(width: 64, height: 48).identifier)
        #expect(ImageProcessors.Orientation().identifier == ImageProcessors.Orientation().identifier)
    }

    @Test("A composition's identifier is its steps' in order, and nesting does not change it")
    func compositionIdentifiers() {
        let steps: [any ImageProcessing] = [.orientation, .resize(width: 64, height: 48)]
        let composed = ImageProcessors.Composition(steps)
        #expect(composed.identifier == "orientation|resize(64x48,filter:lanczos3,linear:false)")
        let reversed = ImageProcessors.Composition(steps.reversed())
        #expect(composed.identifier != reversed.identifier)
        let nested = ImageProcessors.Composition([
            .orientation, ImageProcessors.Composition([.resize(width: 64, height: 48)]),
        ])
        #expect(nested.identifier == composed.identifier)
        #expect(ImageProcessors.Composition([]).identifier.isEmpty)
    }

    @Test("A composition applies its steps in order, like calling them one by one")
    func compositionRunsInOrder() throws {
        var image = SyntheticImages.smooth(width: 60, height: 40, format: .rgb8)
        image.metadata.orientation = .right
        let composed = try ImageProcessors.Composition([.orientation, .resize(width: 20, height: 30)]).process(image)
        let byHand = try image.applyingOrientation().resized(width: 20, height: 30)
        #expect(composed == byHand)
        #expect(composed.width == 20 && composed.height == 30)
    }

    @Test("From bytes, the first step starts from the encoded data: a thumbnail decodes at reduced size")
    func firstStepStartsFromTheBytes() throws {
        let source = SyntheticImages.smooth(width: 640, height: 480, format: .rgb8)
        let jpeg = try source.encoded(as: .jpeg(quality: 90))
        let thumbnail = ThumbnailOptions(size: .box(64))
        let fromBytes = try ImageProcessors.Composition([.thumbnail(thumbnail)])
            .process(data: jpeg, options: DecodeOptions())
        #expect(fromBytes == (try Thumbnailer(thumbnail).thumbnail(data: jpeg)))
        // A decode of the whole image is refused under this limit, the DCT-reduced one is not.
        let limited = DecodeOptions(pixelLimit: 100_000)
        #expect(throws: ImageProcessingError.decoding(.tooLarge(width: 640, height: 480, limit: 100_000))) {
            try ImageProcessors.Composition([.resize(width: 64, height: 48)]).process(data: jpeg, options: limited)
        }
        var boundedThumbnail = thumbnail
        boundedThumbnail.pixelLimit = 100_000
        let bounded = try ImageProcessors.Thumbnail(boundedThumbnail).process(data: jpeg, options: limited)
        #expect(bounded.width == 64)
    }

    @Test("Errors keep the failing stage")
    func errorsKeepTheStage() {
        let image = SyntheticImages.smooth(width: 8, height: 8, format: .rgb8)
        #expect(throws: ImageProcessingError.invalidSize(width: 0, height: 8)) {
            try ImageProcessors.Resize(width: 0, height: 8).process(image)
        }
        #expect(throws: ImageProcessingError.decoding(.unsupportedFormat())) {
            try ImageProcessors.Orientation().process(data: Data([1, 2, 3]), options: DecodeOptions())
        }
        #expect(throws: ImageProcessingError.decoding(.unsupportedFormat())) {
            try ImageProcessors.Thumbnail(.init()).process(data: Data([1, 2, 3]), options: DecodeOptions())
        }
    }
}
