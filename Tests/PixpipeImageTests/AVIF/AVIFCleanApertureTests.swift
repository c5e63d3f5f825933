import Foundation
import Testing

@testable import PixpipeImage

/// One corpus file with a `clap` box and the rectangle its fractions give (worked out by hand from the box,
/// as ISO/IEC 14496-12 defines it: the centre offsets from the image centre, the width and height).
struct CleanApertureCase: Sendable, CustomTestStringConvertible {
    let file: String
    let rectangle: PixelRect
    let orientation: Orientation
    /// Whether libavif converts its pixels (the HDR sample's BT.2020 constant-luminance colour it cannot).
    var decodes = true
    var testDescription: String { file }

    static let all: [CleanApertureCase] = [
        // 385/1 x 330/1, offsets 207/2 and -616/2 from the centre of 722 x 1024: odd x (strict: no).
        .init(file: "kimono.crop.avif", rectangle: PixelRect(x: 272, y: 39, width: 385, height: 330), orientation: .up),
        // The same crop of the same picture stored transposed (imir then irot 270): x and y exchanged.
        .init(
            file: "kimono.mirror-vertical.rotate270.crop.avif",
            rectangle: PixelRect(x: 39, y: 272, width: 330, height: 385), orientation: .leftMirrored),
        // 480 x 256 centred in 480 x 270: y = 7, odd (strict: no).
        .init(
            file: "Chimera_8bit_cropped_480x256.avif", rectangle: PixelRect(x: 0, y: 7, width: 480, height: 256),
            orientation: .up),
        .init(
            file: "Chimera_10bit_cropped_to_1920x1008.avif",
            rectangle: PixelRect(x: 0, y: 36, width: 1920, height: 1008), orientation: .up),
        .init(
            file: "Chimera_10bit_cropped_to_1920x1008_with_HDR_metadata.avif",
            rectangle: PixelRect(x: 0, y: 36, width: 1920, height: 1008), orientation: .up, decodes: false),
    ]
}

@Suite("AVIF clap: reported as the clean aperture, cut before the orientation wherever it is applied")
struct AVIFCleanApertureTests {
    @Test(
        "the rectangle of every clap file, the same from info and decode; pixels stay as stored",
        .enabled(if: Corpora.isAvailable), arguments: CleanApertureCase.all)
    func reported(_ item: CleanApertureCase) throws {
        let data = try AVIFTestFiles.corpus(item.file)
        let info = try Image.info(data: data)
        #expect(info.metadata.cleanAperture == item.rectangle)
        #expect(info.metadata.orientation == item.orientation)
        guard item.decodes else {
            #expect(throws: ImageDecodingError.self) { try Image(data: data) }
            return
        }
        let image = try Image(data: data)
        #expect(image.metadata.cleanAperture == item.rectangle)
        // The decode is the whole coded image (what avifdec writes, and the conformance references are).
        #expect(image.width == info.width && image.height == info.height)
        #expect(!image.metadata.warnings.contains { $0.code == "avif-clap-ignored" })
    }

    @Test(
        "shown, the picture is the uncropped decode's rectangle, then turned; thumbnails follow the crop",
        .enabled(if: Corpora.isAvailable), arguments: CleanApertureCase.all.prefix(3))
    func applied(_ item: CleanApertureCase) throws {
        let image = try Image(data: AVIFTestFiles.corpus(item.file))
        let shown = image.applyingOrientation()
        let expected = try image.cropped(to: item.rectangle).transformed(by: item.orientation)
        #expect(shown.width == expected.width && shown.height == expected.height)
        #expect(shown.pixels == expected.pixels)
        #expect(shown.metadata.cleanAperture == nil && shown.metadata.orientation == .up)
        #expect(try ImageProcessors.Orientation().process(image).pixels == expected.pixels)

        let upright = ImageMetadata.shownSize(
            width: image.width, height: image.height, orientation: item.orientation, cleanAperture: item.rectangle)
        #expect(upright.width == expected.width && upright.height == expected.height)
        let options = ThumbnailOptions(size: .box(128))
        let geometry = try ThumbnailGeometry(sourceWidth: upright.width, sourceHeight: upright.height, options: options)
        for thumbnail in [
            try Thumbnailer(options).thumbnail(data: AVIFTestFiles.corpus(item.file)),
            try Thumbnailer(options).thumbnail(of: image),
        ] {
            #expect(thumbnail.width == geometry.outputWidth && thumbnail.height == geometry.outputHeight)
            #expect(thumbnail.metadata.cleanAperture == nil)
        }
        // Without orientation, nothing is cut either: the stored pixels are resized.
        var stored = options
        stored.appliesOrientation = false
        let whole = try Thumbnailer(stored).thumbnail(of: image)
        let storedGeometry = try ThumbnailGeometry(
            sourceWidth: image.width, sourceHeight: image.height, options: stored)
        #expect(whole.width == storedGeometry.outputWidth && whole.height == storedGeometry.outputHeight)
    }

    @Test("the crop of the transposed file shows the same picture as the crop of the upright one")
    func sameCrop() throws {
        guard Corpora.isAvailable else { return }
        let upright = try Image(data: AVIFTestFiles.corpus("kimono.crop.avif")).applyingOrientation()
        let turned = try Image(data: AVIFTestFiles.corpus("kimono.mirror-vertical.rotate270.crop.avif"))
            .applyingOrientation()
        #expect(upright.width == 385 && upright.height == 330)
        #expect(turned.width == upright.width && turned.height == upright.height)
        if turned.width == upright.width, turned.height == upright.height { #expect(turned.psnr(upright) > 30) }
    }

    @Test("a file without clap reports none and shows every pixel")
    func absent() throws {
        var files = [try AVIFTestFiles.still()]
        if Corpora.isAvailable {
            files += [try AVIFTestFiles.corpus("kimono.avif"), try AVIFTestFiles.corpus("kimono.rotate90.avif")]
        }
        for data in files {
            #expect(try Image.info(data: data).metadata.cleanAperture == nil)
            let image = try Image(data: data)
            #expect(image.metadata.cleanAperture == nil)
            #expect(image.applyingCleanAperture().pixels == image.pixels)
        }
    }

    @Test("a clap box naming no rectangle inside the image is ignored with a benign warning")
    func invalid() throws {
        guard Corpora.isAvailable else { return }
        var bytes = [UInt8](try AVIFTestFiles.corpus("Chimera_8bit_cropped_480x256.avif"))
        let start = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("clap".utf8) })
        // widthN: 1000 columns in a 480-wide image.
        bytes.replaceSubrange((start + 4)..<(start + 8), with: PNGBytes.bigEndian(1000))
        for strictness in [DecodeOptions.Strictness.strict, .lenient] {
            let image = try Image(data: Data(bytes), options: DecodeOptions(strictness: strictness))
            #expect(image.metadata.cleanAperture == nil)
            let warning = try #require(image.metadata.warnings.first { $0.code == "avif-clap-ignored" })
            #expect(warning.kind == .benign)
            #expect(image.applyingOrientation().width == 480 && image.applyingOrientation().height == 270)
        }
    }

    @Test("the encoder writes the clean aperture as clap; odd offsets only where the chroma allows them")
    func encoded() throws {
        var image = SyntheticImages.smooth(width: 40, height: 30, format: .rgb8)
        image.metadata.cleanAperture = PixelRect(x: 4, y: 2, width: 20, height: 16)
        let lossy = try Image(data: image.encoded(as: .avif(AVIFTestFiles.options)))
        #expect(lossy.metadata.cleanAperture == PixelRect(x: 4, y: 2, width: 20, height: 16))
        #expect(lossy.metadata.warnings.isEmpty)

        image.metadata.cleanAperture = PixelRect(x: 3, y: 5, width: 21, height: 11)
        // 4:2:0 cannot start a crop on an odd column for a strict reader: the box is left out.
        #expect(try Image(data: image.encoded(as: .avif(AVIFTestFiles.options))).metadata.cleanAperture == nil)
        // Lossless is 4:4:4: any whole rectangle; the shown picture comes back exactly.
        let lossless = try Image(data: image.encoded(as: .avif(AVIFEncodeOptions(quality: 100, speed: 10))))
        #expect(lossless.metadata.cleanAperture == PixelRect(x: 3, y: 5, width: 21, height: 11))
        #expect(lossless.applyingOrientation().pixels == image.applyingOrientation().pixels)
    }
}

@Suite("The clean aperture follows the pixels through transforms, crops and resizes")
struct CleanApertureGeometryTests {
    /// A 7 x 5 image of distinct pixels with a clean aperture at (1, 2), 4 x 2.
    static func sample() -> Image {
        var image = TestImages.noise(width: 7, height: 5, format: .rgb8)
        image.metadata.cleanAperture = PixelRect(x: 1, y: 2, width: 4, height: 2)
        return image
    }

    @Test("turning then cutting shows what cutting then turning shows", arguments: Orientation.allCases)
    func transformed(_ orientation: Orientation) {
        let image = Self.sample()
        let turned = image.transformed(by: orientation)
        #expect(
            turned.applyingCleanAperture().pixels == image.applyingCleanAperture().transformed(by: orientation).pixels)
        var oriented = image
        oriented.metadata.orientation = orientation
        let shown = oriented.applyingOrientation()
        #expect(shown.pixels == image.applyingCleanAperture().transformed(by: orientation).pixels)
        let size = oriented.metadata.shownSize(width: image.width, height: image.height)
        #expect(shown.width == size.width && shown.height == size.height)
    }

    @Test("a crop moves the rectangle to its corner and clips it; a resize scales it outwards")
    func croppedAndResized() throws {
        let image = Self.sample()
        #expect(
            try image.cropped(to: PixelRect(x: 2, y: 1, width: 5, height: 4)).metadata.cleanAperture
                == PixelRect(x: 0, y: 1, width: 3, height: 2))
        #expect(try image.cropped(to: PixelRect(x: 0, y: 0, width: 7, height: 2)).metadata.cleanAperture == nil)
        #expect(
            try image.resized(width: 14, height: 10).metadata.cleanAperture
                == PixelRect(x: 2, y: 4, width: 8, height: 4))
        let half = try image.resized(width: 3, height: 2).metadata.cleanAperture
        #expect(half == PixelRect(x: 0, y: 0, width: 3, height: 2))
    }
}
