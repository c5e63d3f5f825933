import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// Hostile images: each is refused (or decoded) in well under a second, with a typed error, and the
/// `pixpipe` process that converts it stays under 100 MB of resident memory.
@Suite("Image bombs", .serialized)
struct ImageBombTests {
    /// The most a refusal may take; relaxed under a sanitizer, whose code is several times slower.
    static let timeLimit: Duration = ChildProcessUsage.isSanitized ? .seconds(20) : .seconds(1)
    /// The most resident memory the converting process may reach.
    static let memoryLimit = 100 << 20

    /// Decodes `bytes` in process, returning the error (nil when it decoded) and the CPU time taken.
    private func decode(_ bytes: [UInt8], options: DecodeOptions = .init()) -> (ImageDecodingError?, Duration) {
        let stopwatch = CPUStopwatch()
        var failure: ImageDecodingError?
        do throws(ImageDecodingError) {
            _ = try Image(data: Data(bytes), options: options)
        } catch {
            failure = error
        }
        #expect(stopwatch.wallTime < ChildProcessUsage.hangLimit)
        return (failure, stopwatch.cpuTime)
    }

    /// Runs `pixpipe convert` on `bytes` in a child process and checks its time and peak memory.
    @discardableResult
    private func convertInChild(_ bytes: [UInt8], name: String) throws -> ChildProcessUsage {
        let executable = try #require(PixpipeExecutable.built, "the pixpipe executable is not built")
        let directory = try TemporaryDirectory()
        let input = try directory.write(Data(bytes), to: name)
        let usage = try ChildProcessUsage.measure(executable.url, ["convert", input, directory.path("out.ppm")])
        #expect(usage.cpuTime < Self.timeLimit, "\(name) took \(usage.cpuTime) of CPU time")
        #expect(usage.elapsed < ChildProcessUsage.hangLimit, "\(name) took \(usage.elapsed)")
        if !ChildProcessUsage.isSanitized {
            #expect(usage.peakResidentBytes < Self.memoryLimit, "\(name) peaked at \(usage.peakResidentBytes) bytes")
        }
        print("bomb \(name): exit \(usage.status), \(usage.elapsed), peak RSS \(usage.peakResidentBytes >> 20) MiB")
        return usage
    }

    @Test func pngDeclaringTenGigapixelsIsRefusedFromItsHeader() throws {
        let bomb = BombFiles.png(width: 100_000, height: 100_000, idat: ZeroDeflate.zlib(zeroBytes: 1000))
        let (error, elapsed) = decode(bomb)
        #expect(error == .tooLarge(width: 100_000, height: 100_000, limit: DecodeOptions.defaultPixelLimit))
        #expect(elapsed < Self.timeLimit)
        let usage = try convertInChild(bomb, name: "huge-header.png")
        #expect(usage.status == 1)
        #expect(usage.errors.contains("too large"))
    }

    @Test func jpegDeclaringFourGigapixelsIsRefusedFromItsHeader() throws {
        let bomb = try BombFiles.hugeJPEG()
        let (error, elapsed) = decode(bomb)
        #expect(error == .tooLarge(width: 65500, height: 65500, limit: DecodeOptions.defaultPixelLimit))
        #expect(elapsed < Self.timeLimit)
        let usage = try convertInChild(bomb, name: "huge-header.jpg")
        #expect(usage.status == 1)
        #expect(usage.errors.contains("too large"))
    }

    @Test func pngWhosePixelsInflateToAGigabyteIsRefusedBeforeInflating() throws {
        // 32,768 x 32,767 gray rows plus filter bytes are 1 GiB: the header alone is over the limit.
        let bomb = BombFiles.png(width: 32768, height: 32767, idat: BombFiles.gigabyteOfZeros)
        let (error, elapsed) = decode(bomb)
        #expect(error == .tooLarge(width: 32768, height: 32767, limit: DecodeOptions.defaultPixelLimit))
        #expect(elapsed < Self.timeLimit)
        try convertInChild(bomb, name: "idat-bomb-declared.png")
    }

    @Test func smallPNGWithAGigabyteOfCompressedDataStopsAtItsLastRow() throws {
        // 100 x 100 pixels, but an IDAT stream that would inflate to 1 GiB: only the rows are inflated,
        // then the decoder sees megabytes of compressed data left where a stream's end belongs and stops.
        let bomb = BombFiles.png(width: 100, height: 100, idat: BombFiles.gigabyteOfZeros)
        // The rows are whole, so strict decoding keeps them with a benign warning (it threw before).
        let (error, elapsed) = decode(bomb)
        #expect(error == nil)
        #expect(elapsed < Self.timeLimit)
        print("small PNG with 1 GiB IDAT: \(error.map { "\($0)" } ?? "decoded") in \(elapsed)")

        let clock = ContinuousClock()
        var image: Image?
        let lenientElapsed = try clock.measure {
            image = try Image(data: Data(bomb), options: DecodeOptions(strictness: .lenient))
        }
        #expect(image?.width == 100 && image?.metadata.warnings.map(\.kind) == [.benign])
        #expect(lenientElapsed < Self.timeLimit)

        let usage = try convertInChild(bomb, name: "idat-bomb-small.png")
        #expect(usage.status == 0)
        #expect(usage.errors.contains("too much image data after the last row"))
    }

    @Test(arguments: ["zTXt", "iTXt", "iCCP"])
    func ancillaryChunkInflatingToAGigabyteIsBounded(chunkType: String) throws {
        let chunk =
            switch chunkType {
            case "zTXt": BombFiles.zTXtBomb
            case "iTXt": BombFiles.iTXtBomb
            default: BombFiles.iCCPBomb
            }
        let bomb = BombFiles.smallPNG(with: chunk)
        let (error, elapsed) = decode(bomb)
        #expect(elapsed < Self.timeLimit)
        print("\(chunkType) bomb: \(error.map { "\($0)" } ?? "decoded")")
        try convertInChild(bomb, name: "\(chunkType)-bomb.png")
    }

    @Test func jpegWithThousandsOfProgressiveScansIsRefused() throws {
        let bomb = try BombFiles.manyScanJPEG(scans: 5000)
        let (error, elapsed) = decode(bomb)
        #expect(elapsed < Self.timeLimit)
        print("5000-scan JPEG: \(error.map { "\($0)" } ?? "decoded")")
        let usage = try convertInChild(bomb, name: "many-scans.jpg")
        #expect(usage.status == 1)
    }

    @Test func cyclicEXIFOffsetsStillGiveTheOrientation() throws {
        let bomb = try BombFiles.cyclicEXIFJPEG()
        let clock = ContinuousClock()
        var orientation: Orientation?
        let elapsed = try clock.measure {
            orientation = try Image(data: Data(bomb)).metadata.orientation
        }
        #expect(orientation?.rawValue == 6)
        #expect(elapsed < Self.timeLimit)
        let usage = try convertInChild(bomb, name: "cyclic-exif.jpg")
        #expect(usage.status == 0)
    }
}
