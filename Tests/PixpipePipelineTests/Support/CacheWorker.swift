import Foundation

/// The `PixpipeCacheWorker` executable, built beside the test binary (the test target depends on it).
enum CacheWorker {
    /// Its file, or `nil` when it cannot be found.
    static let url: URL? = {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        let beside = testBinary.deletingLastPathComponent().appendingPathComponent("PixpipeCacheWorker")
        // On Linux it is always here; `Bundle.allBundles` (for macOS's .xctest bundles) is only asked when it
        // is not, since Foundation's list of bundles is a block LeakSanitizer reports as leaked.
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        var candidates: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("PixpipeCacheWorker"))
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Starts the worker with `arguments`, its output going to `output` (a file, so a full pipe never blocks it).
    /// `environment` replaces the variables it names (the rest are inherited).
    static func start(_ arguments: [String], output: URL, environment: [String: String] = [:]) throws -> Process {
        guard let url else { throw CocoaError(.fileNoSuchFile) }
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
        return process
    }
}
