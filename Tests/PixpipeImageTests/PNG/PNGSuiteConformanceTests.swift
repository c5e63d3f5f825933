import Foundation
import Testing

@testable import PixpipeImage

/// PngSuite: every valid file decodes to its reference pixels, every corrupt (`x*`) file is refused.
@Suite(.enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"))
struct PNGSuiteConformanceTests {
    static let suiteFolder = "pngsuite"
    static let referenceFolder = "pngsuite-reference"

    /// Valid files: those with a reference (the overview picture `PngSuite.png` has none).
    static let validFiles = Corpora.files(in: referenceFolder) { $0.hasSuffix(".pam") }.map {
        String($0.dropLast(".pam".count)) + ".png"
    }
    static let corruptFiles = Corpora.files(in: suiteFolder) { $0.hasPrefix("x") && $0.hasSuffix(".png") }

    @Test func theCorpusIsPresent() {
        #expect(Self.validFiles.count == 160)
        #expect(Self.corruptFiles.count == 14)
    }

    @Test(arguments: validFiles)
    func decodesToTheReferencePixels(file: String) throws {
        let image = try Image(contentsOfFile: Corpora.path(Self.suiteFolder, file))
        let reference = try PAMImage(
            contentsOfFile: Corpora.path(Self.referenceFolder, file.replacing(".png", with: ".pam")))
        #expect(image.width == reference.width && image.height == reference.height)
        #expect(reference.depth == 4)
        let actual = image.converted(to: .rgba8).pixels
        try #require(actual.count == reference.samples.count)
        // The name's last two digits are the source bit depth; 16-bit sources may differ by one in rounding.
        let tolerance = file.dropLast(".png".count).hasSuffix("16") ? 1 : 0
        let worst = zip(actual, reference.samples).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= tolerance, "largest sample difference \(worst)")
    }

    @Test(arguments: validFiles)
    func keepsSixteenBitsWhenAsked(file: String) throws {
        let options = DecodeOptions(keeps16Bit: true)
        let wide = try Image(contentsOfFile: Corpora.path(Self.suiteFolder, file), options: options)
        let narrow = try Image(contentsOfFile: Corpora.path(Self.suiteFolder, file))
        #expect(wide.pixelFormat.bitsPerSample == (wide.metadata.sourceBitDepth == 16 ? 16 : 8))
        #expect(wide.samples8 == narrow.pixels)
        let info = try Image.info(contentsOfFile: Corpora.path(Self.suiteFolder, file))
        #expect(info.pixelFormat == wide.pixelFormat)
        #expect(info.metadata.isInterlaced == (file.dropFirst(3).first == "i"))
    }

    @Test(arguments: corruptFiles)
    func refusesCorruptFiles(file: String) {
        let error = #expect(throws: ImageDecodingError.self) {
            try Image(contentsOfFile: Corpora.path(Self.suiteFolder, file))
        }
        #expect(error?.case != .unreadable)
    }

    @Test func reportsGammaPhysicalSizeAndLayouts() throws {
        let gamma = try Image(contentsOfFile: Corpora.path(Self.suiteFolder, "g04n0g16.png"))
        #expect(gamma.metadata.gamma.map { abs($0 - 0.45) < 0.001 } == true)
        #expect(gamma.pixelFormat == .gray8)
        // cdun2c08 states 1000 pixels per metre; cdsn2c08 only an aspect ratio, which is no resolution.
        let perMetre = try Image(contentsOfFile: Corpora.path(Self.suiteFolder, "cdun2c08.png"))
        #expect(perMetre.metadata.dotsPerInch.map { abs($0.x - 25.4) < 1e-9 && abs($0.y - 25.4) < 1e-9 } == true)
        let aspectOnly = try Image(contentsOfFile: Corpora.path(Self.suiteFolder, "cdsn2c08.png"))
        #expect(aspectOnly.metadata.dotsPerInch == nil)
        let transparentGray = try Image(contentsOfFile: Corpora.path(Self.suiteFolder, "tbbn0g04.png"))
        #expect(transparentGray.pixelFormat == .grayAlpha8)
        let transparentPalette = try Image(contentsOfFile: Corpora.path(Self.suiteFolder, "tbbn3p08.png"))
        #expect(transparentPalette.pixelFormat == .rgba8)
        let palette = try Image(contentsOfFile: Corpora.path(Self.suiteFolder, "basn3p04.png"))
        #expect(palette.pixelFormat == .rgb8 && palette.metadata.sourceBitDepth == 4)
    }
}
