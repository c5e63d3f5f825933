import Foundation
import Testing

@testable import Pixpipe

@Suite("SHA-256")
struct SHA256Tests {
    @Test(
        "FIPS 180 test vectors",
        arguments: [
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
        ])
    func vectors(message: String, expected: String) {
        #expect(SHA256.hash(Data(message.utf8)).hexString == expected)
    }

    @Test("Feeding bytes in uneven pieces gives the one-shot digest")
    func pieces() {
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        var hasher = SHA256()
        var start = 0
        for size in [1, 63, 64, 65, 2, 127, 300] where start < bytes.count {
            let end = min(bytes.count, start + size)
            hasher.update(bytes[start..<end])
            start = end
        }
        hasher.update(bytes[start...])
        #expect(hasher.finalize() == SHA256.hash(bytes))
    }

    @Test("One million 'a' (FIPS long vector)")
    func million() {
        let digest = SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(digest.hexString == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("A reset hasher gives the digest of what follows only; prefix64 equals the digest's first 8 bytes")
    func resetAndPrefix() {
        var hasher = SHA256()
        hasher.update(Data("something else".utf8))
        hasher.reset()
        hasher.update(Data("abc".utf8))
        #expect(hasher.finalize().hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        for text in ["", "abc", "https://example.com/a.png", String(repeating: "x", count: 1_000)] {
            #expect(SHA256.prefix64(ofUTF8: text) == SHA256.hash(Data(text.utf8)).prefix64)
        }
        #expect(SHA256.prefix64(ofUTF8: "abc") == 0xba78_16bf_8f01_cfea)
    }
}
