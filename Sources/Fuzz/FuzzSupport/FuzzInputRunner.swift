import Foundation

/// Feeds files to a fuzz entry point outside libFuzzer: the regression runner of every fuzz target.
///
/// A normal `swift build` has no libFuzzer to supply `main`, so each fuzz target's `main` (``FuzzTarget``'s,
/// compiled only without `PIXPIPE_FUZZING`) hands its arguments here: `FuzzDecode crash-1234 Fixtures/fuzz/` runs the
/// same function libFuzzer would, once per file (directories are walked), so a saved crash reproduces
/// under a debugger or a sanitizer without the fuzzing runtime.
public enum FuzzInputRunner {
    /// Runs `body` on the bytes of every file named in `arguments` (directories recursively); returns the
    /// process exit status: 0 when every file was read, 1 when one could not be, 2 without arguments.
    public static func run(arguments: [String], _ body: (UnsafeRawBufferPointer) -> Void) -> Int32 {
        guard !arguments.isEmpty else {
            print("usage: \(CommandLine.arguments.first ?? "fuzz-target") FILE-OR-DIRECTORY...")
            return 2
        }
        var count = 0
        var unreadable = 0
        for path in arguments.flatMap(files(at:)) {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("cannot read \(path)")
                unreadable += 1
                continue
            }
            data.withUnsafeBytes(body)
            count += 1
        }
        print("ran \(count) inputs")
        return unreadable == 0 ? 0 : 1
    }

    /// The whole `main` of a fuzz target built without libFuzzer: runs `body` on every file named on the
    /// command line and exits with ``run(arguments:_:)``'s status.
    public static func main(_ body: (UnsafeRawBufferPointer) -> Void) -> Never {
        exit(run(arguments: Array(CommandLine.arguments.dropFirst()), body))
    }

    /// Adapts libFuzzer's `(pointer, count)` pair, whose pointer may be null for empty input.
    static func bytes(_ start: UnsafeRawPointer?, _ count: Int) -> UnsafeRawBufferPointer {
        guard let start, count > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: start, count: count)
    }

    /// The regular files at `path`: itself, or everything below it when it is a directory, sorted.
    private static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [path]
        }
        let children = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
        return children.sorted().map { "\(path)/\($0)" }.filter { child in
            var childIsDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: child, isDirectory: &childIsDirectory)
                && !childIsDirectory.boolValue
        }
    }
}
