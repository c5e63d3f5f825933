import Foundation

/// Runs the built `pixpipe` executable as a child process, the way a user does.
struct PixpipeExecutable {
    /// What one run printed and returned.
    struct Result {
        /// The exit status.
        let status: Int32
        /// Everything written to standard output.
        let output: Data
        /// Everything written to standard error, as text.
        let errors: String

        /// Standard output as text.
        var outputText: String { String(decoding: output, as: UTF8.self) }
        /// Standard output split into lines, without the final empty one.
        var outputLines: [String] {
            outputText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    /// The executable file.
    let url: URL

    /// The executable beside the test binary, or `nil` when it cannot be found.
    ///
    /// Looked for, in order: `$PIXPIPE_EXECUTABLE`; the directory of the running test binary (on Linux
    /// `.build/<triple>/debug/`, where SwiftPM also puts products); the directory holding the `.xctest`
    /// bundle (macOS); and `.build/debug/` of the package this file belongs to.
    static let built: PixpipeExecutable? = {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["PIXPIPE_EXECUTABLE"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        candidates.append(testBinary.deletingLastPathComponent().appendingPathComponent("pixpipe"))
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("pixpipe"))
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("pixpipe"))
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/pixpipe"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }.map(PixpipeExecutable.init)
    }()

    /// Runs `pixpipe` with `arguments`, feeding it `input` on standard input, in `directory` when given, with
    /// `environment` over the test's own.
    func run(
        _ arguments: [String], input: Data = Data(), in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> Result {
        // Files rather than pipes: the child can write any amount without blocking on a full pipe buffer.
        let scratch = try TemporaryDirectory()
        let inputURL = scratch.url.appendingPathComponent("stdin")
        let outputURL = scratch.url.appendingPathComponent("stdout")
        let errorURL = scratch.url.appendingPathComponent("stderr")
        try input.write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)

        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            output: try WholeFile.data(at: outputURL),
            errors: String(decoding: try WholeFile.data(at: errorURL), as: UTF8.self))
    }
}
