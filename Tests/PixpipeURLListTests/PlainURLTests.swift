import Foundation
import Testing

@testable import Pixpipe

@Suite("Checking a list's URLs by their bytes gives what parsing them gives")
struct PlainURLTests {
    /// What the general path makes of `text`: its `absoluteString` when it is a usable http or https URL.
    private func parsed(_ text: String) -> String? {
        guard case .success(let url) = URLListParser.validatedURL(text, line: 1) else { return nil }
        return url.absoluteString
    }

    /// When the byte check accepts `text`, the general path accepts it too, as the very same text.
    private func expectSound(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard PlainHTTPURL.accepts(Substring(text)) else { return }
        #expect(parsed(text) == text, "accepted by bytes: \(text)", sourceLocation: sourceLocation)
    }

    @Test(
        "Plain URLs are accepted by their bytes, as the general path reads them",
        arguments: [
            "http://127.0.0.1:9/scale/000001-t001.jpg", "https://example.com/a.png", "http://e.com",
            "https://e.com/", "https://cdn-1.images.example.co.uk/p/a_b~c.jpg?w=64&h=48#top",
            "http://e.com:8080/a/b/c", "http://e.com/%20space%2Fslash", "http://e.com?x=1", "http://e.com#f",
            "https://e.com/a(1)!$'*+,;=:@.png", "http://E.COM/A.PNG", "http://xn--bcher-kva.example/",
            "http://e.com/a?b?c/d", "http://e.com/#a?b/c", "http://1.2.3.4/", "http://a/", "http://e.com:65535/",
        ])
    func accepted(text: String) {
        #expect(PlainHTTPURL.accepts(Substring(text)))
        #expect(parsed(text) == text)
    }

    @Test(
        "Awkward URLs are left to the general path, or accepted only when it agrees",
        arguments: [
            "", "http://", "https://", "http:///a", "http://:80/", "http://e.com:/", "http://e.com:123456/",
            "http://e.com:99999/", "http://e.com:00000/", "http://-e.com/", "http://e-.com/", "http://e..com/",
            "http://.e.com/", "http://e.com./", "http://e_com/", "http://user@e.com/", "http://user:pw@e.com/",
            "http://[::1]/", "http://[::1]:80/a", "http://e.com/a b", "http://e.com/a%", "http://e.com/a%2",
            "http://e.com/a%zz", "http://e.com/a#b#c", "http://e.com/é", "http://é.com/", "http://e.com/a\"b",
            "http://e.com/a<b>", "http://e.com/a\\b", "http://e.com/a{b}", "http://e.com/a|b", "http://e.com/a^b",
            "http://e.com/a`b", "http://e.com/a[b]", "HTTP://e.com/", "Http://e.com/", "ftp://e.com/",
            "httpx://e.com/", "http:/e.com/", "http:e.com", "http://e.com\t/", "http://e.com/\u{7F}",
            "http://e.com/a\u{0}", " http://e.com/", "http://e.com/ ", "http://e.com\\a", "http://999.999.999.999/",
            "http://0x7f.1/", "http://e.com:0/", "http://" + String(repeating: "a", count: 64) + ".com/",
            "http://" + String(repeating: "a.", count: 127) + "a/", "http://e.com:8080:80/", "http://e.com/%%20",
            "http://e.com//a//b", "http://e.com/./../a", "http://e.com?", "http://e.com#", "https://e.com:/a",
        ])
    func awkward(text: String) {
        expectSound(text)
    }

    @Test("Generated URL-like texts are accepted by their bytes only when the general path agrees")
    func generated() {
        var generator = SeededGenerator(seed: 18)
        let schemes = ["http://", "https://", "http://", "https://", "http:/", "HTTP://", "http://user@", "hxxp://"]
        // Mostly characters of the plain shape, sometimes any other, so most texts are near it on either side.
        let hostBytes = (plain: Array("abcz019-.".utf8), other: Array("_~%:@[]!$&'()*+,;=AZ é".utf8))
        let restBytes = (
            plain: Array("az09-._~:@/?#!$&'()*+,;=%AFaf".utf8),
            other: Array(" \"<>\\^`{|}[]#%".utf8) + [0x7F, 0xC3, 0xA9, 0x09, 0x00]
        )
        func pick(_ alphabet: (plain: [UInt8], other: [UInt8])) -> UInt8 {
            let pool = generator.next() % 16 == 0 ? alphabet.other : alphabet.plain
            return pool[Int(generator.next() % UInt64(pool.count))]
        }
        var accepted = 0
        for _ in 0..<50_000 {
            var bytes = Array(schemes[Int(generator.next() % UInt64(schemes.count))].utf8)
            for _ in 0..<Int(1 + generator.next() % 12) { bytes.append(pick(hostBytes)) }
            if generator.next() % 3 == 0 { bytes += Array(":\(generator.next() % 100_000)".utf8) }
            if generator.next() % 4 != 0 { bytes.append(UInt8(ascii: "/")) }
            for _ in 0..<Int(generator.next() % 16) { bytes.append(pick(restBytes)) }
            let text = String(decoding: bytes, as: UTF8.self)
            if PlainHTTPURL.accepts(Substring(text)) { accepted += 1 }
            expectSound(text)
        }
        // The generator reaches the accepted shape often enough for the comparison to mean something.
        #expect(accepted > 1_000)
    }

    @Test(
        "A list's checked entries are its entries, line for line and error for error",
        arguments: [
            "http://e.com/a.png\n\nhttps://e.com/b c.png\n# comment\nftp://e.com/x\nnot a url\nhttp://e.com/a.png\r\n"
                + " http://e.com/é \nhttp://[::1]/a\nhttp:///x\nhttp://e.com:99999/\n",
            "url,name\nhttp://e.com/a.png,A\n\"http://e.com/b,c.png\",B\n,C\nmailto:x@e.com,D\n\"http://e.com/\nd\",E\n",
            "url\tname\nhttp://e.com/a.png\tA\nhttps://e.com/%41\tB\n",
            "{\"url\":\"http://e.com/a.png\"}\n{\"url\":\"http://e.com/\\u00e9\"}\n{\"url\":5}\n{\"name\":\"x\"}\n[]\n",
            "\u{FEFF}http://e.com/first\nhttp://e.com/second",
            "name,link\nhttp://e.com/a\n",
        ])
    func listsAgree(list: String) {
        let entries = URLList(bytes: Array(list.utf8)).map { element in
            element.map { "\($0.line) \($0.url.absoluteString)" }
        }
        let checked = URLList(bytes: Array(list.utf8)).checkedEntries.map { element in
            element.map { "\($0.line) \($0.absoluteString)" }
        }
        #expect(checked == entries)
    }

    @Test("A shard holds a URL checked by its text as it holds the URL itself")
    func shardByText() throws {
        let shard = try Shard(index: 1, count: 3)
        for number in 0..<300 {
            let text = "http://127.0.0.1:9/scale/\(number)-t\(number % 7).jpg"
            let url = try #require(URL(string: text))
            #expect(shard.contains(absoluteString: Substring(text)) == shard.contains(url))
        }
    }
}

/// A small seeded generator (xorshift64*), so the generated cases are the same in every run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
    }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
