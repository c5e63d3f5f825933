import Foundation
import PixpipeHTTP
import Synchronization

// PixpipeRequestLoop URL COUNT [CONCURRENCY] [curl|urlsession] [transport|global]
// PixpipeRequestLoop @LIST COUNT [CONCURRENCY] [curl|urlsession] [transport|global]
//
// Sends COUNT GET requests for URL (each with its own `?request=I`), or for the URLs of the file LIST (one
// per line, in turn), CONCURRENCY at a time, through one `HTTPClient`, and exits 0 when every one answered
// 200, 1 otherwise. The worker tasks run on the transport's own thread when it offers one (`transport`, the
// default; see `CurlTransport.taskExecutor`) or on the global executor (`global`). The memory tests run it as a
// child process and compare its peak RSS over 1,000 and 10,000 requests: a per-request leak shows.
// `scripts/bench` runs it on a list to time the transports alone.

let arguments = CommandLine.arguments
let usage = "usage: PixpipeRequestLoop URL|@LIST COUNT [CONCURRENCY] [curl|urlsession] [transport|global]\n"
guard arguments.count >= 3, let count = Int(arguments[2]), count >= 0 else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
// Lines, parsed into URLs as each request is sent (in parallel with the transfers, not all before the first).
let listLines: [String]? = arguments[1].hasPrefix("@") ? readLines(String(arguments[1].dropFirst())) : nil
let base = URL(string: arguments[1])
guard listLines.map({ !$0.isEmpty }) ?? (base != nil) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
let concurrency = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 8) : 8
let kind = arguments.count > 4 ? HTTPTransportKind.allCases.first { $0.description == arguments[4] } : .curl
guard let kind else {
    FileHandle.standardError.write(Data("PixpipeRequestLoop: unknown transport \(arguments[4])\n".utf8))
    exit(2)
}

let placement = arguments.count > 5 ? arguments[5] : "transport"
guard placement == "transport" || placement == "global" else {
    FileHandle.standardError.write(Data("PixpipeRequestLoop: unknown executor \(placement)\n".utf8))
    exit(2)
}

var configuration = HTTPClient.Configuration()
configuration.maxConcurrentRequests = concurrency
configuration.retryPolicy = .none
let client = HTTPClient(configuration: configuration, transport: kind)
/// Where the workers run: on the transport's thread they resume after each response without a thread hop.
let workerExecutor = placement == "transport" ? client.transport.taskExecutor : nil

/// Sends request number `index` and says whether it got a 200.
@Sendable func send(_ index: Int) async -> Bool {
    guard let url = target(index) else { return false }
    do {
        return try await client.response(for: Request<Data>(url: url)).statusCode == 200
    } catch {
        FileHandle.standardError.write(Data("PixpipeRequestLoop: request \(index): \(error)\n".utf8))
        return false
    }
}

/// The URL of request number `index`.
@Sendable func target(_ index: Int) -> URL? {
    if let listLines { return URL(string: listLines[index % listLines.count]) }
    guard let base else { return nil }
    var components = URLComponents(url: base, resolvingAgainstBaseURL: false)
    components?.queryItems = [URLQueryItem(name: "request", value: String(index))]
    return components?.url
}

/// The next request number to send, shared by the workers.
let nextIndex = Atomic<Int>(0)

/// CONCURRENCY workers, each sending the next unsent request until none is left: no task per request and
/// no hop back to the main actor between requests (a task group fed from the top-level code resumed the
/// main thread for every response, which cost more than the request's own bookkeeping).
let failures = await withTaskGroup(of: Int.self) { group in
    for _ in 0..<min(concurrency, count) {
        group.addTask(executorPreference: workerExecutor) {
            var failed = 0
            while true {
                let index = nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < count else { return failed }
                if !(await send(index)) { failed += 1 }
            }
        }
    }
    var total = 0
    while let failed = await group.next() { total += failed }
    return total
}
print("requests \(count) failed \(failures)")
exit(failures == 0 ? 0 : 1)

/// The non-empty lines of a file, or nil when it cannot be read.
///
/// Scanned as raw bytes: splitting the text by Characters (grapheme breaking), or `Data` into slices,
/// took 2 to 4 ms for 2,000 URLs, which the benchmark would count against the transport.
func readLines(_ path: String) -> [String]? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return data.withUnsafeBytes { bytes in
        var lines: [String] = []
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "\n") {
            var end = index
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            if end > start {
                lines.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
            }
            start = index + 1
        }
        return lines
    }
}
