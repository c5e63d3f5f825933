import Foundation

/// An executable the TLS fixture runs (`nginx`, `openssl`), found on `PATH` or in the `sbin` folders.
///
/// Debian installs nginx in `/usr/sbin`, which is not on an ordinary user's `PATH`, so those
/// folders are searched after it.
struct ExternalTool: Sendable, Hashable {
    /// The executable's name, such as `openssl`.
    let name: String
    /// Its absolute path.
    let path: String

    /// The folders searched after `PATH`.
    private static let systemFolders = ["/usr/sbin", "/usr/local/sbin", "/sbin", "/opt/homebrew/bin", "/usr/local/bin"]

    /// Finds `name`, or says where it looked.
    static func locate(_ name: String) throws(NginxFixtureError) -> ExternalTool {
        let folders = searchFolders()
        for folder in folders {
            let candidate = folder + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return ExternalTool(name: name, path: candidate)
            }
        }
        throw .toolMissing(name: name, searched: folders)
    }

    /// Whether `name` can be found.
    static func isInstalled(_ name: String) -> Bool {
        (try? locate(name)) != nil
    }

    private static func searchFolders() -> [String] {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        var folders: [String] = []
        for folder in path.split(separator: ":").map(String.init) + systemFolders where !folders.contains(folder) {
            folders.append(folder)
        }
        return folders
    }

    /// Runs the tool to completion with its output captured; throws when it exits with a non-zero status.
    func run(_ arguments: [String], in directory: URL) throws(NginxFixtureError) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .commandFailed(tool: name, arguments: arguments, status: -1, output: "\(error)")
        }
        // Read before waiting: a full pipe would otherwise block the child forever.
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: printed.suffix(2000), as: UTF8.self)
            throw .commandFailed(tool: name, arguments: arguments, status: process.terminationStatus, output: text)
        }
    }
}
