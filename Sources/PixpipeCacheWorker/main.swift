// A child process for the disk cache tests: fills or hammers one `DataCache` folder with bodies that check
// themselves (`CacheTestPayload`), so that the test can kill it mid-write or run two at once.
//
// PixpipeCacheWorker fill DIR KEYS SIZE_LIMIT
//     Stores bodies of 128 KiB to 2 MiB for KEYS keys, round and round, until killed.
// PixpipeCacheWorker hammer DIR KEYS SIZE_LIMIT ITERATIONS SEED
//     Stores and reads at random; exits 1 at the first body that is not one stored for its key, else
//     prints `hits H misses M writes W` and exits 0.
// PixpipeCacheWorker load DIR URL...
//     Loads the URLs through an ImagePipeline over the folder (see PipelineLoad.swift).
// PixpipeCacheWorker shared URL...
//     Loads the URLs through ImagePipeline.shared (see PipelineLoad.swift).
// PixpipeCacheWorker read DIR KEY SIZE_LIMIT
//     Reads KEY's entry once and prints `hit BYTES` or `miss`, then `peak KB`: the process's peak resident
//     memory (`VmHWM`), which tells whether the read was bounded.
import Foundation
import Pixpipe
import PixpipeTestSupport

let arguments = CommandLine.arguments
if arguments.count >= 4, arguments[1] == "load" {
    exit(await loadThroughPipeline(directory: arguments[2], urls: Array(arguments[3...])))
}
if arguments.count >= 3, arguments[1] == "shared" {
    exit(await loadThroughSharedPipeline(urls: Array(arguments[2...])))
}
if arguments.count == 5, arguments[1] == "read", let sizeLimit = Int(arguments[4]) {
    do {
        let cache = try DataCache(directory: URL(fileURLWithPath: arguments[2]), sizeLimit: sizeLimit)
        print(cache.data(for: arguments[3]).map { "hit \($0.count)" } ?? "miss")
    } catch {
        print("error \(error)")
        exit(2)
    }
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?.split(separator: " ").dropFirst().first
    print("peak \(peak ?? "unknown")")
    exit(0)
}
let usage =
    "usage: PixpipeCacheWorker fill DIR KEYS SIZE_LIMIT | hammer DIR KEYS SIZE_LIMIT ITERATIONS SEED | load DIR URL..."
    + " | shared URL... | read DIR KEY SIZE_LIMIT\n"
guard arguments.count >= 5, let keys = Int(arguments[3]), keys > 0, let sizeLimit = Int(arguments[4]) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
let cache: DataCache
do {
    cache = try DataCache(directory: URL(fileURLWithPath: arguments[2]), sizeLimit: sizeLimit)
} catch {
    FileHandle.standardError.write(Data("PixpipeCacheWorker: \(error)\n".utf8))
    exit(2)
}

switch arguments[1] {
case "fill":
    // The bodies are made once, up front, so that the loop spends its time storing: a kill then often lands
    // between the temporary file's creation and its rename.
    var generator = SeededGenerator(seed: UInt64(getpid()))
    let bodies = (0..<keys).map { number in
        CacheTestPayload.body(
            key: "key-\(number)", version: UInt64(number), size: Int.random(in: 128 << 10...2 << 20, using: &generator))
    }
    var round = 0
    while true {
        let number = round % keys
        try? cache.store(bodies[number], for: "key-\(number)")
        round += 1
    }
case "hammer" where arguments.count == 7:
    guard let iterations = Int(arguments[5]), let seed = UInt64(arguments[6]) else {
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
    var generator = SeededGenerator(seed: seed)
    var hits = 0
    var misses = 0
    var writes = 0
    for iteration in 0..<iterations {
        let key = "key-\(Int.random(in: 0..<keys, using: &generator))"
        if Bool.random(using: &generator) {
            let size = Int.random(in: 1 << 10...16 << 10, using: &generator)
            // Versions unique to this process: the seed in the high bits.
            let version = seed << 32 | UInt64(iteration)
            try? cache.store(CacheTestPayload.body(key: key, version: version, size: size), for: key)
            writes += 1
        } else if let data = cache.data(for: key) {
            guard CacheTestPayload.isValid(data, for: key) else {
                FileHandle.standardError.write(Data("PixpipeCacheWorker: a wrong body for \(key)\n".utf8))
                exit(1)
            }
            hits += 1
        } else {
            misses += 1
        }
    }
    print("hits \(hits) misses \(misses) writes \(writes)")
default:
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
