import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// Decoding many small PNGs of the shape the fast path takes (libdeflate and in-place unfiltering, as a
/// long `fetch --convert` makes) holds no memory past each decode. Measured in a child process
/// (`pixpipe-bench decode`), whose resident set no other test shares: thousands of decodes peak close to a
/// few hundred.
@Suite(.serialized)
struct PNGDecodeMemoryTests {
    @Test func manySmallDecodesHoldNoMemory() throws {
        let pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable is not built")
        let bench = pixpipe.url.deletingLastPathComponent().appendingPathComponent("pixpipe-bench")
        try #require(FileManager.default.isExecutableFile(atPath: bench.path), "pixpipe-bench is not built")
        let directory = try TemporaryDirectory()
        var files: [String] = []
        for size in 80..<83 {
            // Over 16 KiB of filtered data, which the fast path takes (PNGFastPathSmallFileTests checks it).
            var image = Image(width: size, height: 64, pixelFormat: .rgba8)
            for y in 0..<64 {
                for x in 0..<size {
                    for channel in 0..<4 {
                        image[x: x, y: y, channel: channel] = (x * 29 + y * 13 + channel * 50) % 256
                    }
                }
            }
            files.append(try directory.write(try image.encoded(as: .png), to: "\(size).png"))
        }
        // Three files per repetition: 900 decodes, then 21,000.
        func peak(repetitions: Int) throws -> Int {
            let usage = try ChildProcessUsage.measure(
                bench, ["decode"] + files + ["--warmup", "0", "--repeat", "\(repetitions)"])
            #expect(usage.status == 0, "\(usage.errors)")
            return usage.peakResidentBytes
        }
        let few = try peak(repetitions: 300)
        let many = try peak(repetitions: 7000)
        // A few KB held per decode would pass this several times over; allocator noise stays far below it.
        #expect(
            many - few < 64_000_000 + ChildProcessUsage.sanitizerGrowthAllowance,
            "peak \(few) bytes after 900 decodes, \(many) after 21,000")
    }
}
