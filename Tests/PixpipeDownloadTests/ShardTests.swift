import Foundation
import Testing

@testable import Pixpipe

@Suite("Shards")
struct ShardTests {
    @Test("Every URL is in exactly one shard", arguments: 1...5)
    func partition(count: Int) throws {
        let shards = try (0..<count).map { try Shard(index: $0, count: count) }
        for number in 0..<200 {
            let url = try #require(URL(string: "https://example.com/images/\(number).png"))
            #expect(shards.filter { $0.contains(url) }.count == 1)
        }
    }

    @Test("The shard follows the documented rule: SHA-256 prefix, big-endian, modulo the count")
    func rule() throws {
        let url = try #require(URL(string: "https://example.com/a.png"))
        let prefix = SHA256.hash(Data(url.absoluteString.utf8)).bytes.prefix(8).reduce(UInt64(0)) {
            $0 << 8 | UInt64($1)
        }
        let expected = Int(prefix % 7)
        #expect(try Shard(index: expected, count: 7).contains(url))
    }

    @Test("Invalid shards are refused")
    func invalid() {
        #expect(throws: ShardError.invalidCount(0)) { try Shard(index: 0, count: 0) }
        #expect(throws: ShardError.indexOutOfRange(index: 3, count: 3)) { try Shard(index: 3, count: 3) }
        #expect(throws: ShardError.indexOutOfRange(index: -1, count: 3)) { try Shard(index: -1, count: 3) }
    }
}
