import Foundation
import Pixpipe
import Testing

@Suite("pixpipe thumbnail memory", .enabled(if: PixpipeExecutable.built != nil, "the pixpipe executable is not built"))
struct ThumbnailMemoryTests {
    /// Runs `executable` with `arguments` (output discarded) and returns its exit status and peak RSS in bytes.
    ///
    /// The peak is the child's own `VmHWM`, sampled from `/proc` while it runs: `wait4`'s `ru_maxrss` would
    /// also count this test process, whose memory a spawned child shares until it calls `exec`. The samples
    /// are a sampling, not a wait for a result; the high-water mark only grows, so a late sample sees it all.
    static func runMeasured(_ executable: String, _ arguments: [String]) -> (status: Int32, peakBytes: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { return (-1, 0) }
        var peak = 0
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
            {
                peak = max(peak, kilobytes * 1024)
            }
            usleep(2000)
        }
        return ((status >> 8) & 0xFF, peak)
    }

    /// An 8000x6000 RGB PNG (144 MB of pixels) streams through the resizer: the child's peak RSS stays
    /// well under a third of what a full decode would hold. The box filter keeps the debug build fast.
    @Test func aLargePNGIsThumbnailedInBoundedMemory() throws {
        let (width, height) = (8000, 6000)
        let rowBytes = width * 3
        let row = (0..<rowBytes).map { UInt8(truncatingIfNeeded: $0 / 3) }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(rowBytes * height)
        for _ in 0..<height { pixels.append(contentsOf: row) }
        let image = Image(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
        pixels = []
        let input = try TemporaryDirectory()
        let path = try input.write(try image.encoded(as: .png(PNGEncodeOptions(compressionLevel: 1))), to: "large.png")
        let output = try TemporaryDirectory()

        let executable = try #require(PixpipeExecutable.built).url.path
        let (status, peakBytes) = Self.runMeasured(
            executable, ["thumbnail", path, "--out", output.url.path, "--size", "256", "--filter", "box"])
        #expect(status == 0)
        #expect(try Image.info(contentsOfFile: output.path("large.jpg")).width == 256)
        let fullDecodeBytes = width * height * 3
        // A sanitized child's shadow memory and runtime make its RSS no measure of the streaming.
        if !ChildProcessUsage.isSanitized {
            #expect(peakBytes > 0 && peakBytes < fullDecodeBytes / 3, "child peak RSS \(peakBytes / 1_048_576) MiB")
        }
    }
}
