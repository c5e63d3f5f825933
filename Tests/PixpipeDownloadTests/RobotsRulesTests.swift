import Testing

@testable import Pixpipe

/// The robots.txt parser and matcher against the cases RFC 9309 describes (group choice, longest match,
/// `*` and `$`, percent-encoding), written here as files of our own.
@Suite("robots.txt rules")
struct RobotsRulesTests {
    private func rules(_ text: String, token: String = "Pixpipe") -> RobotsRules {
        RobotsRules(parsing: Array(text.utf8), productToken: token)
    }

    @Test("the group naming the product token applies, case-insensitively, over the * group")
    func ownGroupWins() {
        let file = """
            User-agent: *
            Disallow: /

            User-agent: PIXPIPE/0.1
            Disallow: /private/
            """
        let robots = rules(file)
        #expect(robots.allows(path: "/public/a.jpg"))
        #expect(!robots.allows(path: "/private/a.jpg"))
        // Another crawler gets the * group.
        #expect(!rules(file, token: "OtherBot").allows(path: "/public/a.jpg"))
    }

    @Test("several groups for the same agent are merged, and consecutive user-agent lines share one group")
    func groupsMerge() {
        let file = """
            User-agent: pixpipe
            Disallow: /a/

            User-agent: otherbot
            User-agent: pixpipe
            Disallow: /b/

            User-agent: otherbot
            Disallow: /c/
            """
        let robots = rules(file)
        #expect(!robots.allows(path: "/a/1"))
        #expect(!robots.allows(path: "/b/1"))
        #expect(robots.allows(path: "/c/1"))
    }

    @Test("no matching group and no * group allows everything; an empty Disallow matches nothing")
    func noGroup() {
        #expect(rules("User-agent: otherbot\nDisallow: /\n").allows(path: "/x"))
        #expect(rules("User-agent: *\nDisallow:\n").allows(path: "/x"))
        #expect(rules("").allows(path: "/x"))
        // Rules before any user-agent line belong to no group.
        #expect(rules("Disallow: /\nUser-agent: *\nAllow: /\n").allows(path: "/x"))
    }

    @Test("the longest match wins; Allow wins a tie")
    func longestMatch() {
        let robots = rules(
            """
            User-agent: *
            Allow: /example/page/
            Disallow: /example/page/disallowed.gif
            Disallow: /example/
            Allow: /tie
            Disallow: /tie
            """)
        #expect(robots.allows(path: "/example/page/"))
        #expect(robots.allows(path: "/example/page/other.gif"))
        #expect(!robots.allows(path: "/example/page/disallowed.gif"))
        #expect(!robots.allows(path: "/example/other"))
        #expect(robots.allows(path: "/tie"))
    }

    @Test("* matches any run of octets and a final $ anchors the end")
    func specialCharacters() {
        let robots = rules(
            """
            User-agent: *
            Disallow: /path/file-with-a-*.html
            Disallow: /path/foo-$
            Disallow: /*.gif$
            """)
        #expect(!robots.allows(path: "/path/file-with-a-wildcard.html"))
        #expect(!robots.allows(path: "/path/file-with-a-.html"))
        #expect(!robots.allows(path: "/path/foo-"))
        #expect(robots.allows(path: "/path/foo-bar"))
        #expect(!robots.allows(path: "/images/a.gif"))
        #expect(robots.allows(path: "/images/a.gif?size=2"))
        #expect(robots.allows(path: "/images/a.png"))
    }

    @Test("queries are part of the matched path")
    func queries() {
        let robots = rules("User-agent: *\nDisallow: /foo/bar?baz=quz\n")
        #expect(!robots.allows(path: "/foo/bar?baz=quz"))
        #expect(robots.allows(path: "/foo/bar"))
    }

    @Test("percent-encoding is normalised in paths and patterns alike")
    func percentEncoding() {
        // A UTF-8 pattern matches the encoded path, and an encoded pattern the same path.
        #expect(!rules("User-agent: *\nDisallow: /foo/bar/ツ\n").allows(path: "/foo/bar/%E3%83%84"))
        #expect(!rules("User-agent: *\nDisallow: /foo/bar/%E3%83%84\n").allows(path: "/foo/bar/%e3%83%84"))
        // Escapes of unreserved characters are the characters themselves.
        #expect(!rules("User-agent: *\nDisallow: /foo/bar/%62%61%7A\n").allows(path: "/foo/bar/baz"))
        #expect(!rules("User-agent: *\nDisallow: /foo/bar/baz\n").allows(path: "/foo/bar/%62%61%7A"))
        // An escaped reserved character is not the character.
        #expect(rules("User-agent: *\nDisallow: /a%2Fb\n").allows(path: "/a/b"))
        #expect(RobotsRules.normalized(Array("/a b%7e%2f".utf8)) == Array("/a%20b~%2F".utf8))
    }

    @Test("robots.txt itself is always allowed; Disallow: / blocks the rest")
    func robotsFileAllowed() {
        let robots = rules("User-agent: *\nDisallow: /\n")
        #expect(robots.allows(path: "/robots.txt"))
        #expect(!robots.allows(path: "/"))
        #expect(!RobotsRules.disallowAll.allows(path: "/a"))
        #expect(RobotsRules.allowAll.allows(path: "/a"))
    }

    @Test("keys are case-insensitive, comments and CR/LF line ends are handled, unknown lines skipped")
    func syntax() {
        let robots = rules(
            "# hello\r\nuser-AGENT: *  # everyone\r\nSitemap: https://x/s.xml\r\nDISALLOW: /x # no\r\nnonsense\r\n")
        #expect(!robots.allows(path: "/x/1"))
        #expect(robots.allows(path: "/y"))
    }

    @Test("Crawl-delay is read from the applying group")
    func crawlDelay() {
        let file = "User-agent: *\nCrawl-delay: 5\n\nUser-agent: pixpipe\nCrawl-delay: 0.5\nDisallow: /x\n"
        #expect(rules(file).crawlDelay == 0.5)
        #expect(rules(file, token: "other").crawlDelay == 5)
        #expect(rules("User-agent: *\nCrawl-delay: soon\n").crawlDelay == nil)
    }

    @Test("only the first 500 KiB are parsed")
    func parseLimit() {
        let padding = String(repeating: "# padding\n", count: RobotsRules.parseLimit / 10)
        let robots = rules("User-agent: *\nDisallow: /a\n" + padding + "Disallow: /b\n")
        #expect(!robots.allows(path: "/a"))
        #expect(robots.allows(path: "/b"))
    }

    @Test("a pattern full of * stays fast on a long path")
    func noBacktrackingBlowup() {
        let pattern = Array(String(repeating: "*a", count: 30).utf8) + [0x24]
        let path = Array(String(repeating: "a", count: 5000).utf8) + [0x62]
        #expect(!RobotsRules.matches(pattern, path))
    }
}
