/// The rules of one robots.txt file (RFC 9309) that apply to one product token, and the paths they allow.
///
/// ```swift
/// let rules = RobotsRules(parsing: Array("User-agent: *\nDisallow: /private/\n".utf8), productToken: "Pixpipe")
/// rules.allows(path: "/private/a.jpg")  // false
/// rules.allows(path: "/public/a.jpg")  // true
/// ```
///
/// Pure code: no I/O. The group whose `User-agent` names the product token (case-insensitively; every such
/// group merged) applies, else every `*` group merged, else nothing (all allowed). The longest matching
/// `Allow` or `Disallow` pattern wins, `Allow` on a tie; `*` matches any run of octets and a final `$`
/// anchors the pattern at the path's end. Paths and patterns are compared after the same normalisation:
/// octets outside printable ASCII are percent-encoded, escapes of unreserved characters decoded, and the
/// hex digits of the other escapes uppercased, so `/a%62c`, `/abc` and `/ab%63` match each other.
struct RobotsRules: Sendable, Hashable {
    /// The most bytes of a robots.txt file parsed (RFC 9309 asks for at least 500 KiB); the rest is ignored.
    static let parseLimit = 500 * 1024

    /// One `Allow` or `Disallow` line, its pattern normalised.
    struct Rule: Sendable, Hashable {
        /// Whether the line is `Allow`.
        var allows: Bool
        /// The normalised pattern, in octets.
        var pattern: [UInt8]
    }

    /// The rules that apply, in file order.
    private(set) var rules: [Rule]
    /// The `Crawl-delay` of the applying group, in seconds, when it gives a usable one (not part of RFC 9309,
    /// but widely sent: the time to leave between two requests).
    private(set) var crawlDelay: Double?

    /// Rules that allow every path: for a missing robots.txt (a `4xx` answer).
    static let allowAll = RobotsRules(rules: [], crawlDelay: nil)
    /// Rules that disallow every path: for a robots.txt that could not be reached (a `5xx` answer or no answer).
    static let disallowAll = RobotsRules(rules: [Rule(allows: false, pattern: Array("/".utf8))], crawlDelay: nil)

    private init(rules: [Rule], crawlDelay: Double?) {
        self.rules = rules
        self.crawlDelay = crawlDelay
    }

    /// The rules of the file `bytes` (its first ``parseLimit`` bytes) for `productToken`.
    init(parsing bytes: some Collection<UInt8>, productToken: String) {
        let token = Array(productToken.lowercased().utf8)
        var own = Group()
        var star = Group()
        var foundOwn = false
        var foundStar = false
        // The agents of the group being read; `inRules` once a rule line has ended its user-agent lines.
        var agents = (own: false, star: false)
        var inRules = false
        for line in Self.lines(bytes.prefix(Self.parseLimit)) {
            guard let (key, value) = Self.keyAndValue(line) else { continue }
            switch key {
            case "user-agent":
                if inRules {
                    agents = (false, false)
                    inRules = false
                }
                let agent = Self.productToken(of: value)
                if agent == Array("*".utf8) {
                    agents.star = true
                    foundStar = true
                } else if !agent.isEmpty, agent == token {
                    agents.own = true
                    foundOwn = true
                }
            case "allow", "disallow", "crawl-delay":
                inRules = true
                guard agents.own || agents.star else { continue }
                if key == "crawl-delay" {
                    guard let delay = Double(String(decoding: value, as: UTF8.self)), delay.isFinite, delay >= 0
                    else { continue }
                    if agents.own { own.crawlDelay = own.crawlDelay ?? delay }
                    if agents.star { star.crawlDelay = star.crawlDelay ?? delay }
                    continue
                }
                // An empty pattern matches nothing (RFC 9309 2.2.2): `Disallow:` alone allows everything.
                guard !value.isEmpty else { continue }
                let rule = Rule(allows: key == "allow", pattern: Self.normalized(value))
                if agents.own { own.rules.append(rule) }
                if agents.star { star.rules.append(rule) }
            default:
                // Sitemap and other records neither start nor end a group.
                continue
            }
        }
        let group = foundOwn ? own : (foundStar ? star : Group())
        self.init(rules: group.rules, crawlDelay: group.crawlDelay)
    }

    /// Whether the rules allow `path`: a URL's percent-encoded path, with `?` and its query when it has one.
    func allows(path: String) -> Bool {
        let target = Self.normalized(Array((path.isEmpty ? "/" : path).utf8))
        // RFC 9309 2.2.2: robots.txt itself is always allowed.
        if target == Array("/robots.txt".utf8) { return true }
        var best: (length: Int, allows: Bool)?
        for rule in rules where Self.matches(rule.pattern, target) {
            let length = rule.pattern.count
            if let current = best, current.length > length || (current.length == length && current.allows) {
                continue
            }
            best = (length, rule.allows)
        }
        return best?.allows ?? true
    }

    private struct Group {
        var rules: [Rule] = []
        var crawlDelay: Double?
    }

    /// The file's lines, split at LF, CR or CRLF, each without its comment.
    private static func lines(_ bytes: some Collection<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        let all = Array(bytes)
        var start = 0
        var index = 0
        while index <= all.count {
            if index == all.count || all[index] == 0x0A || all[index] == 0x0D {
                var line = all[start..<index]
                if let hash = line.firstIndex(of: 0x23) { line = line[..<hash] }
                lines.append(line)
                start = index + 1
            }
            index += 1
        }
        return lines
    }

    /// The lowercased key and the trimmed value of a `key: value` line; `nil` for lines without a colon.
    private static func keyAndValue(_ line: ArraySlice<UInt8>) -> (String, ArraySlice<UInt8>)? {
        guard let colon = line.firstIndex(of: 0x3A) else { return nil }
        let key = String(decoding: trimmed(line[..<colon]), as: UTF8.self).lowercased()
        return (key, trimmed(line[(colon + 1)...]))
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        return bytes
    }

    /// The product token a `User-agent` value names, lowercased: `*`, or its leading letters, `_` and `-`
    /// (so `Pixpipe/1.0` names `pixpipe`).
    private static func productToken(of value: ArraySlice<UInt8>) -> [UInt8] {
        if value.first == 0x2A { return Array("*".utf8) }
        var token: [UInt8] = []
        for byte in value {
            let lower = byte | 0x20
            if (0x61...0x7A).contains(lower) {
                token.append(lower)
            } else if byte == 0x5F || byte == 0x2D {
                token.append(byte)
            } else {
                break
            }
        }
        return token
    }

    /// `bytes` with octets outside printable ASCII percent-encoded, escapes of unreserved characters decoded,
    /// and the hex digits of other escapes uppercased (RFC 3986 2.1 and 6.2.2.2, as RFC 9309 2.2.2 asks).
    static func normalized(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == 0x25, index + 2 < input.count, let high = hexValue(input[index + 1]),
                let low = hexValue(input[index + 2])
            {
                let decoded = high << 4 | low
                if isUnreserved(decoded) {
                    output.append(decoded)
                } else {
                    output.append(contentsOf: [0x25, hexDigit(high), hexDigit(low)])
                }
                index += 3
                continue
            }
            if byte <= 0x20 || byte >= 0x7F {
                output.append(contentsOf: [0x25, hexDigit(byte >> 4), hexDigit(byte & 0x0F)])
            } else {
                output.append(byte)
            }
            index += 1
        }
        return output
    }

    /// Whether `pattern` (with `*` and a final `$`) matches a prefix of `path`, or all of it when anchored.
    static func matches(_ pattern: [UInt8], _ path: [UInt8]) -> Bool {
        var pattern = pattern[...]
        let anchored = pattern.last == 0x24
        if anchored { pattern = pattern.dropLast() }
        // Greedy matching with backtracking to the last `*` only: linear in practice, never exponential.
        var p = pattern.startIndex
        var s = 0
        var star: (pattern: Int, path: Int)?
        while true {
            if p == pattern.endIndex {
                if !anchored || s == path.count { return true }
            } else if pattern[p] == 0x2A {
                star = (p + 1, s)
                p += 1
                continue
            } else if s < path.count, pattern[p] == path[s] {
                p += 1
                s += 1
                continue
            }
            guard let last = star, last.path < path.count else { return false }
            star = (last.pattern, last.path + 1)
            p = last.pattern
            s = last.path + 1
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: true
        default: false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x41 + value - 10 }
}
