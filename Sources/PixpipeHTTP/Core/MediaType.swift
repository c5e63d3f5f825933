/// Parsing and matching of `Content-Type` values such as `text/plain; charset=utf-8`.
enum MediaType {
    /// The `type/subtype` part, trimmed and lower-cased.
    static func essence(of contentType: String) -> String {
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return mediaType.trimmingSpaces().lowercased()
    }

    /// The value of parameter `name` (case-insensitive), unquoted and lower-cased.
    static func parameter(_ name: String, in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces() }
            guard parts.count == 2, parts[0].caseInsensitiveEquals(name) else { continue }
            var value = parts[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value.lowercased()
        }
        return nil
    }

    /// Whether `contentType` matches `pattern`: `image/png`, `image/*` or `*/*`; parameters are ignored.
    static func matches(_ contentType: String, pattern: String) -> Bool {
        let actual = essence(of: contentType)
        let wanted = essence(of: pattern)
        if wanted == "*/*" || wanted == actual { return true }
        if wanted.hasSuffix("/*") {
            return actual.hasPrefix(String(wanted.dropLast()))
        }
        return false
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view = view.dropFirst() }
        while let last = view.last, last == " " || last == "\t" { view = view.dropLast() }
        return String(view)
    }
}
