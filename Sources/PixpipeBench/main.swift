// `pixpipe-bench`: times PixpipeImage's in-process operations for `scripts/bench`.
// Build in release: `swift build -c release --product pixpipe-bench`. See `BenchArguments.usage`.
import Foundation
import PixpipeImage

/// Writes `message` and a newline to stderr.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Runs the subcommand named on the command line and prints its JSON report.
func runBench() throws(BenchError) {
    let commandLine = Array(CommandLine.arguments.dropFirst())
    if commandLine.first == "--help" || commandLine.first == "-h" {
        print(BenchArguments.usage)
        return
    }
    let arguments = try BenchArguments(commandLine)
    switch arguments.subcommand {
    case "decode":
        try Benchmarks.decode(arguments).print()
    case "verify":
        try Benchmarks.verify(arguments).print()
    case "decode-frames":
        try Benchmarks.decodeFrames(arguments).print()
    case "encode-jpeg":
        try Benchmarks.encode(arguments, as: .jpeg(quality: arguments.quality), name: "encode-jpeg").print()
    case "encode-png":
        try Benchmarks.encode(arguments, as: .png, name: "encode-png").print()
    case "encode-webp":
        let options = WebPEncodeOptions(quality: arguments.quality, method: arguments.method)
        try Benchmarks.encode(arguments, as: .webp(options), name: "encode-webp").print()
    case "resize":
        try Benchmarks.resize(arguments).print()
    case "pipeline-memory":
        try PipelineBenchmarks.run(arguments, PipelineBenchmarks.memoryHits).print()
    case "pipeline-disk":
        try PipelineBenchmarks.run(arguments, PipelineBenchmarks.diskHits).print()
    case "pipeline-mixed":
        try PipelineBenchmarks.run(arguments, PipelineBenchmarks.mixed).print()
    default:
        throw .usage("unknown subcommand \(arguments.subcommand)\n\(BenchArguments.usage)")
    }
}

do {
    try runBench()
} catch {
    printError("pixpipe-bench: \(error)")
    exit(error.exitStatus)
}
