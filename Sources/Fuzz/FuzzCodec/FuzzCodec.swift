import Foundation
import FuzzCodecSupport
import FuzzSupport
import PixpipeImage

/// libFuzzer's entry point, which must live in the executable: see ``FuzzCodecTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCodec(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzCodecTarget.testOneInput(start, count)
}

/// libFuzzer's set-up hook, called once before the first input: picks the format (or lists them) then,
/// so that a missing or unknown `PIXPIPE_FUZZ_FORMAT` stops the run before any fuzzing.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzCodecInitialize(
    _ argc: UnsafeMutablePointer<CInt>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
    FuzzCodecTarget.prepare(listing: false)
    return 0
}

/// Reads the header of, decodes, verifies and walks every frame of any bytes that sniff as ONE codec's
/// format, and nothing else (see ``CodecFuzzing``); every decodable format of the codec table is a run.
///
/// The format comes from the environment, not the command line, because libFuzzer owns `argv`:
/// `PIXPIPE_FUZZ_FORMAT=webp FuzzCodec corpus/`. `PIXPIPE_FUZZ_FORMAT=list` (or `--list-formats`
/// in a build without libFuzzer) prints each decodable format's identifier and its corpus folder under
/// `$PIXPIPE_CORPORA`, tab-separated, one a line, and exits: `scripts/fuzz` runs one fuzzing per line.
#if !PIXPIPE_FUZZING
    @main
#endif
enum FuzzCodecTarget: FuzzTarget {
    /// The environment variable that names the format.
    static let formatVariable = "PIXPIPE_FUZZ_FORMAT"

    /// The format fuzzed, read once.
    static let format: ImageFormat = chosenFormat()

    static func fuzz(_ bytes: UnsafeRawBufferPointer) { CodecFuzzing.run(bytes, format: format) }

    /// Runs the files on the command line through the format's decoder, or lists the formats.
    static func main() {
        prepare(listing: CommandLine.arguments.dropFirst().first == "--list-formats")
        FuzzInputRunner.main(fuzz)
    }

    /// Lists the formats and exits when asked to, else makes sure the format is known (exiting if not).
    static func prepare(listing: Bool) {
        if listing || environment(formatVariable) == "list" {
            for format in ImageFormat.all where format.canDecode {
                print("\(format.rawValue)\t\(format.corpusFolder)")
            }
            exit(0)
        }
        _ = format
    }

    private static func chosenFormat() -> ImageFormat {
        let name = environment(formatVariable) ?? ""
        guard let format = ImageFormat(name: name), format.canDecode else {
            let known = ImageFormat.all.filter(\.canDecode).map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(
                Data("FuzzCodec: set \(formatVariable) to one of: \(known) (got \"\(name)\")\n".utf8))
            exit(2)
        }
        return format
    }

    private static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name]
    }
}
