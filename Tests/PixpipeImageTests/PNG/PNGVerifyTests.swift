import Foundation
import Testing

@testable import PixpipeImage

/// `Image.verify` of a PNG (rows inflated and CRC-checked into one reused row buffer) agrees with a full
/// decode on every PngSuite file and every damaged version of a few: the same header facts and warnings
/// when the decode succeeds, the same error when it fails, in strict and lenient mode.
@Suite(.enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"))
struct PNGVerifyTests {
    static let suiteFolder = PNGSuiteConformanceTests.suiteFolder

    /// What a read of the bytes came to, comparable between verify and decode.
    enum Outcome: Equatable, CustomStringConvertible {
        case accepted(ImageInfo)
        case refused(ImageDecodingError)

        var description: String {
            switch self {
            case .accepted(let info): "accepted \(info.width)x\(info.height) \(info.metadata.warnings)"
            case .refused(let error): "refused: \(error)"
            }
        }
    }

    static func verified(_ bytes: [UInt8], _ options: DecodeOptions) -> Outcome {
        do throws(ImageDecodingError) {
            return .accepted(try Image.verify(data: Data(bytes), options: options))
        } catch {
            return .refused(error)
        }
    }

    /// The full decode's outcome, as the default (decoding) verification reported it before PNG had its own.
    static func decoded(_ bytes: [UInt8], _ options: DecodeOptions) -> Outcome {
        do throws(ImageDecodingError) {
            let image = try Image(data: Data(bytes), options: options)
            return .accepted(
                ImageInfo(
                    format: .png, width: image.width, height: image.height, pixelFormat: image.pixelFormat,
                    metadata: image.metadata))
        } catch {
            return .refused(error)
        }
    }

    static let modes: [DecodeOptions] = [
        DecodeOptions(), DecodeOptions(keeps16Bit: true), DecodeOptions(strictness: .lenient),
    ]

    static func bytes(_ file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Corpora.path(suiteFolder, file))))
    }

    @Test(arguments: PNGSuiteConformanceTests.validFiles + ["PngSuite.png"])
    func acceptsEveryValidFileWithTheDecodesFacts(file: String) throws {
        let bytes = try Self.bytes(file)
        for options in Self.modes {
            let verified = Self.verified(bytes, options)
            #expect(verified == Self.decoded(bytes, options))
            guard case .accepted = verified else {
                Issue.record("\(file) refused: \(verified)")
                continue
            }
        }
    }

    @Test(arguments: PNGSuiteConformanceTests.corruptFiles)
    func refusesEveryCorruptFileWithTheDecodesError(file: String) throws {
        let bytes = try Self.bytes(file)
        for options in Self.modes {
            let verified = Self.verified(bytes, options)
            #expect(verified == Self.decoded(bytes, options), "\(file)")
        }
        guard case .refused = Self.verified(bytes, DecodeOptions()) else {
            Issue.record("\(file) accepted")
            return
        }
    }

    /// A plain, an interlaced, a 16-bit, a palette and a large-ish file, cut at many lengths.
    static let damagedSources = ["basn2c08.png", "basi0g08.png", "basn6a16.png", "basi3p04.png", "PngSuite.png"]

    @Test(arguments: damagedSources)
    func truncationsAreRefusedAsTheDecodeRefusesThem(file: String) throws {
        let bytes = try Self.bytes(file)
        let step = max(1, bytes.count / 150)
        var refused = 0
        for length in stride(from: 0, to: bytes.count, by: step) {
            let cut = Array(bytes.prefix(length))
            for options in Self.modes {
                let verified = Self.verified(cut, options)
                #expect(verified == Self.decoded(cut, options), "\(file) cut at \(length)")
                if case .refused = verified, options.strictness == .strict { refused += 1 }
            }
        }
        // In strict mode every cut before IEND's end fails.
        #expect(refused == 2 * Set(stride(from: 0, to: bytes.count, by: step)).count)
    }

    @Test(arguments: damagedSources)
    func flippedBytesGiveTheDecodesOutcome(file: String) throws {
        let bytes = try Self.bytes(file)
        let step = max(1, bytes.count / 150)
        for offset in stride(from: 8, to: bytes.count, by: step) {
            var damaged = bytes
            damaged[offset] ^= 0x5A
            for options in Self.modes {
                #expect(Self.verified(damaged, options) == Self.decoded(damaged, options), "\(file) byte \(offset)")
            }
        }
    }
}
