import Foundation

extension ManifestRecord {
    /// The record as one line of JSON and a line feed: the same object `JSONEncoder` writes (keys in
    /// declaration order, absent fields left out, slashes unescaped), built by hand.
    ///
    /// Every stored file appends one; through `JSONEncoder` that cost as much as a tenth of the CPU a
    /// batch of small files spends outside the transfers. `JSONDecoder` reads these lines back (tested
    /// on records holding quotes, control characters and non-ASCII text).
    var jsonLine: Data {
        var line = "{"
        line.reserveCapacity(256)
        var first = true
        func key(_ name: String) {
            if !first { line += "," }
            first = false
            line += "\"\(name)\":"
        }
        func string(_ name: String, _ value: String?) {
            guard let value else { return }
            key(name)
            Self.appendQuoted(value, to: &line)
        }
        func integer(_ name: String, _ value: Int?) {
            guard let value else { return }
            key(name)
            line += String(value)
        }
        string("url", url)
        string("name", name)
        string("status", status.rawValue)
        integer("httpStatus", httpStatus)
        integer("bytes", bytes)
        string("sha256", sha256)
        integer("width", width)
        integer("height", height)
        string("format", format)
        integer("attempts", attempts)
        key("elapsed")
        // Shortest round-tripping form; a batch never records an infinite or NaN duration.
        line += elapsed.isFinite ? "\(elapsed)" : "0"
        string("error", error)
        string("errorKind", errorKind)
        // Last, so the keys before it keep their order; left out when empty, as JSONEncoder leaves out nil.
        if let warnings, !warnings.isEmpty {
            key("warnings")
            line += "["
            for (index, warning) in warnings.enumerated() {
                if index > 0 { line += "," }
                Self.appendQuoted(warning, to: &line)
            }
            line += "]"
        }
        // The validators after everything else, for the same reason.
        string("etag", etag)
        string("lastModified", lastModified)
        line += "}\n"
        return Data(line.utf8)
    }

    /// Appends `text` as a JSON string: quotes, backslashes and control characters escaped, the rest as is.
    private static func appendQuoted(_ text: String, to line: inout String) {
        line += "\""
        // Every character that needs an escape is ASCII, so one look at the UTF-8 finds the usual text
        // (URLs, names, hashes) that needs none, which is then appended whole: scalar by scalar, five
        // strings per record cost a sixth of the instructions of storing a small file with --no-verify.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            line += text
            line += "\""
            return
        }
        var plainStart = text.unicodeScalars.startIndex
        var index = plainStart
        let scalars = text.unicodeScalars
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let escape: String? =
                switch scalar {
                case "\"": "\\\""
                case "\\": "\\\\"
                case "\n": "\\n"
                case "\r": "\\r"
                case "\t": "\\t"
                case _ where scalar.value < 0x20: String(format: "\\u%04x", scalar.value)
                default: nil
                }
            if let escape {
                line.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
                line += escape
                plainStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        line.unicodeScalars.append(contentsOf: scalars[plainStart..<scalars.endIndex])
        line += "\""
    }
}
