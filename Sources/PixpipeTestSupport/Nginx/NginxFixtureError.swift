/// Why an ``NginxTLSServer`` could not be set up or started.
public enum NginxFixtureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An executable the fixture needs (`nginx`, `openssl`) is not installed; `searched` lists where it looked.
    case toolMissing(name: String, searched: [String])
    /// A command ran but failed: the tool, its arguments, its exit status and what it printed.
    case commandFailed(tool: String, arguments: [String], status: Int32, output: String)
    /// A file of the fixture (configuration, document, certificate) could not be written.
    case cannotWriteFile(path: String, reason: String)
    /// No free port could be reserved on 127.0.0.1: the failing system call and its `errno`.
    case portReservationFailed(step: String, errorNumber: Int32)
    /// nginx exited or never accepted connections; `errorLog` is what it wrote to its error log.
    case startFailed(reason: String, errorLog: String)

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .toolMissing(let name, let searched):
            "\(name) is not installed (looked in \(searched.joined(separator: ":"))); scripts/bootstrap installs it"
        case .commandFailed(let tool, let arguments, let status, let output):
            "\(tool) \(arguments.joined(separator: " ")) exited with status \(status): \(output)"
        case .cannotWriteFile(let path, let reason): "cannot write \(path): \(reason)"
        case .portReservationFailed(let step, let errorNumber):
            "cannot reserve a port on 127.0.0.1: \(step)() failed with errno \(errorNumber)"
        case .startFailed(let reason, let errorLog):
            "nginx did not start: \(reason)" + (errorLog.isEmpty ? "" : "; error log: \(errorLog)")
        }
    }
}
