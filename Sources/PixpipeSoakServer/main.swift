import Foundation
import PixpipeTestSupport

// pixpipe-soak-server [--count N] [--seed S]
//
// Serves N image URLs on 127.0.0.1 with the hostile behaviours of `SoakBehavior`, prints
// `port PORT` on standard output, and serves until it is killed. `scripts/soak` drives it.

/// The value after `flag` among the arguments, parsed by `parse`, or `fallback` when the flag is absent.
func argument<T>(_ flag: String, default fallback: T, _ parse: (String) -> T?) -> T {
    let arguments = CommandLine.arguments
    guard let position = arguments.firstIndex(of: flag) else { return fallback }
    guard position + 1 < arguments.count, let value = parse(arguments[position + 1]) else {
        FileHandle.standardError.write(Data("pixpipe-soak-server: \(flag) needs a valid value\n".utf8))
        exit(2)
    }
    return value
}

let count = argument("--count", default: 5000) { Int($0).flatMap { $0 > 0 ? $0 : nil } }
let seed = argument("--seed", default: UInt64(1)) { UInt64($0) }

let server: TestHTTPServer
do {
    server = try TestHTTPServer()
} catch {
    FileHandle.standardError.write(Data("pixpipe-soak-server: \(error)\n".utf8))
    exit(1)
}
SoakSite(count: count, seed: seed).install(on: server)
// Written straight to the descriptor: the driver reads this line while the process keeps running.
FileHandle.standardOutput.write(Data("port \(server.port)\n".utf8))
// The server's threads do the work; this one only keeps the process alive until a signal ends it.
while true { pause() }
