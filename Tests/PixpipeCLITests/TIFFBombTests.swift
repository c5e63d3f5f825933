import Foundation
import Pixpipe
import Testing

/// Hostile TIFFs: refused from their directories in well under the limits, with a typed error, and the
/// `pixpipe` process stays under 100 MB; a huge striped page is thumbnailed a strip at a time.
@Suite("TIFF bombs and bounded-memory thumbnails", .serialized)
struct TIFFBombTests {
    /// The most CPU time a refusal may take; relaxed under a sanitizer.
    static let timeLimit: Duration = ChildProcessUsage.isSanitized ? .seconds(20) : .seconds(2)
    /// The most resident memory the process may reach.
    static let memoryLimit = 100 << 20

    /// Runs `pixpipe arguments` (the input written as `name` first) and checks its CPU time and peak memory.
    private func runInChild(_ bytes: [UInt8], name: String, _ arguments: [String]) throws -> ChildProcessUsage {
        let executable = try #require(PixpipeExecutable.built, "the pixpipe executable is not built")
        let directory = try TemporaryDirectory()
        let input = try directory.write(Data(bytes), to: name)
        let resolved = arguments.map {
            $0 == "IN" ? input : $0.replacingOccurrences(of: "DIR", with: directory.url.path)
        }
        let usage = try ChildProcessUsage.measure(executable.url, resolved)
        #expect(usage.cpuTime < Self.timeLimit, "\(name) took \(usage.cpuTime) of CPU time")
        if !ChildProcessUsage.isSanitized {
            #expect(usage.peakResidentBytes < Self.memoryLimit, "\(name) peaked at \(usage.peakResidentBytes) bytes")
        }
        print(
            "tiff \(name) \(arguments.first ?? ""): exit \(usage.status), \(usage.cpuTime), peak \(usage.peakResidentBytes >> 20) MiB"
        )
        return usage
    }

    @Test("a million pages: counting stops past the frame limit; the first page alone still decodes")
    func millionPages() throws {
        let bomb = TIFFBombFiles.manyPages(1_000_000)
        let data = Data(bomb)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: ImageDecodingError.tooManyFrames(count: 10_001, limit: 10_000)) {
            try AnimationReader(data: data)
        }
        #expect(throws: ImageDecodingError.tooManyFrames(count: 10_001, limit: 10_000)) { try Image.info(data: data) }
        #expect(try Image(data: data).width == 1)
        #expect(clock.now - start < ChildProcessUsage.hangLimit)
        let info = try runInChild(bomb, name: "pages.tif", ["info", "IN"])
        #expect(info.status == 1 && info.errors.contains("animation too long"))
        let frame = try runInChild(bomb, name: "pages.tif", ["convert", "--frame", "3", "IN", "DIR/out.png"])
        #expect(frame.status == 1 && frame.errors.contains("animation too long"))
        let convert = try runInChild(bomb, name: "pages.tif", ["convert", "IN", "DIR/out.png"])
        #expect(convert.status == 0, "\(convert.errors)")
    }

    @Test("100,000 x 100,000 pixels in one-row strips: refused from the directory")
    func hugePage() throws {
        let bomb = Self.hugeStriped()
        #expect(
            throws: ImageDecodingError.tooLarge(width: 100_000, height: 100_000, limit: DecodeOptions.defaultPixelLimit)
        ) {
            try Image(data: Data(bomb))
        }
        let convert = try runInChild(bomb, name: "huge.tif", ["convert", "IN", "DIR/out.png"])
        #expect(convert.status == 1 && convert.errors.contains("too large"))
        let thumbnail = try runInChild(bomb, name: "huge.tif", ["thumbnail", "IN", "--out", "DIR/thumbs"])
        #expect(thumbnail.status == 1)
    }

    /// 100,000 one-row strips of 100,000 bytes each, none of them present: 800 KB of strip tables.
    static func hugeStriped() -> [UInt8] {
        let strips = 100_000
        var bytes: [UInt8] = [0x49, 0x49, 42, 0]
        let offsetsAt = 8
        let countsAt = offsetsAt + 4 * strips
        let directoryAt = countsAt + 4 * strips
        bytes += withUnsafeBytes(of: UInt32(directoryAt).littleEndian, Array.init)
        let offset = withUnsafeBytes(of: UInt32(8).littleEndian, Array.init)
        let count = withUnsafeBytes(of: UInt32(100_000).littleEndian, Array.init)
        for _ in 0..<strips { bytes += offset }
        for _ in 0..<strips { bytes += count }
        let entries = TIFFBombFiles.grayEntries(
            width: 100_000, height: 100_000, rowsPerStrip: 1, compression: 1, strips: UInt32(strips),
            offsets: UInt32(offsetsAt), counts: UInt32(countsAt))
        return bytes + TIFFBombFiles.directory(entries, next: 0)
    }

    @Test("a 20,000 x 20,000 striped TIFF is thumbnailed to 256 px a strip at a time, under 100 MB")
    func hugeStripedThumbnail() throws {
        let executable = try #require(PixpipeExecutable.built).url.path
        let input = try TemporaryDirectory()
        let path = try input.write(
            Data(TIFFBombFiles.zeroStrips(width: 20_000, height: 20_000, rowsPerStrip: 16)), to: "large.tif")
        let output = try TemporaryDirectory()
        let run = ChildProcessPeak.run(
            executable,
            ["thumbnail", path, "--out", output.url.path, "--size", "256", "--filter", "box", "--format", "png"])
        #expect(run.status == 0)
        let info = try Image.info(contentsOfFile: output.path("large.png"))
        #expect(info.width == 256 && info.height == 256)
        let bound = ChildProcessUsage.isSanitized ? 400_000_000 : Self.memoryLimit
        #expect(run.peakBytes > 0 && run.peakBytes < bound, "child peak RSS \(run.peakMiB) MiB")
        print("tiff 20000x20000 thumbnail: peak \(run.peakMiB) MiB")
    }
}
