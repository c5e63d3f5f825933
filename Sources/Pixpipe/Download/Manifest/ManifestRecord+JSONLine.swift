import Foundation
import PixpipeLocking

extension ManifestRecord {
    /// The record as one line of JSON and a line feed: the same object `JSONEncoder` writes (keys in
    /// declaration order, absent fields left out, slashes unescaped), built by hand.
    ///
    /// Every stored file appends one; through `JSONEncoder` that cost as much as a tenth of the CPU a
    /// batch of small files spends outside the transfers. `JSONDecoder` reads these lines back (tested
    /// on records holding quotes, control characters and non-ASCII text).
    var jsonLine: Data {
        var line = JSONLineBytes()
        // In the declared order; the switch has no default, so a new key cannot be left unwritten.
        for key in ManifestKey.allCases {
            switch key {
            case .url: line.string(key, url)
            case .name: line.string(key, name)
            case .status: line.string(key, status.rawValue)
            case .httpStatus: line.integer(key, httpStatus)
            case .bytes: line.integer(key, bytes)
            case .sha256: line.string(key, sha256)
            case .width: line.integer(key, width)
            case .height: line.integer(key, height)
            case .format: line.string(key, format)
            case .attempts: line.integer(key, attempts)
            case .elapsed:
                line.key(key)
                // Shortest round-tripping form; a batch never records an infinite or NaN duration.
                line.bytes.append(contentsOf: (elapsed.isFinite ? elapsed.description : "0").utf8)
            case .error: line.string(key, error)
            case .errorKind: line.string(key, errorKind)
            case .warnings:
                // Left out when empty, as JSONEncoder leaves out nil.
                guard let warnings, !warnings.isEmpty else { continue }
                line.key(key)
                line.bytes.append(UInt8(ascii: "["))
                for (index, warning) in warnings.enumerated() {
                    if index > 0 { line.bytes.append(UInt8(ascii: ",")) }
                    Self.appendQuoted(warning, to: &line.bytes)
                }
                line.bytes.append(UInt8(ascii: "]"))
            case .etag: line.string(key, etag)
            case .lastModified: line.string(key, lastModified)
            case .recipe: line.string(key, recipe)
            case .archive: line.string(key, archive)
            }
        }
        line.bytes.append(contentsOf: "}\n".utf8)
        return Data(line.bytes)
    }

    /// Appends `text` as a JSON string: quotes, backslashes and control characters escaped, and the scalars a
    /// terminal would obey that JSON lets through (DEL, C1, bidirectional controls, line and paragraph
    /// separators: ``UntrustedText/needsEscape(_:)``) written as `\uXXXX`, so that `cat manifest.jsonl`
    /// cannot drive a terminal; the rest as is.
    fileprivate static func appendQuoted(_ text: String, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "\""))
        // Below DEL every byte that needs an escape is ASCII and no UTF-8 sequence of another character
        // contains one, so ASCII text is copied byte by byte and only those bytes are replaced: the usual
        // text (URLs, names, hashes) needs none and goes in with one copy. Other text goes scalar by scalar.
        var text = text
        let isASCII = text.withUTF8 { utf8 in
            guard !utf8.contains(where: { $0 >= 0x7F }) else { return false }
            var plainStart = 0
            for (index, byte) in utf8.enumerated() where needsEscape(byte) {
                line.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart..<index]))
                line.append(contentsOf: escape(byte))
                plainStart = index + 1
            }
            line.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart...]))
            return true
        }
        if !isASCII {
            for scalar in text.unicodeScalars {
                if scalar.isASCII, needsEscape(UInt8(scalar.value)) {
                    line.append(contentsOf: escape(UInt8(scalar.value)))
                } else if UntrustedText.needsEscape(scalar) {
                    let hex = Array(String(scalar.value, radix: 16).utf8)
                    line.append(contentsOf: "\\u".utf8)
                    line.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: 4 - hex.count))
                    line.append(contentsOf: hex)
                } else {
                    UTF8.encode(scalar) { line.append($0) }
                }
            }
        }
        line.append(UInt8(ascii: "\""))
    }

    /// Whether `byte` must be escaped in a JSON string: a quote, a backslash or a control character.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// The JSON escape of a byte that needs one (a quote, a backslash or a control character).
    private static func escape(_ byte: UInt8) -> [UInt8] {
        switch byte {
        case UInt8(ascii: "\""): return Array("\\\"".utf8)
        case UInt8(ascii: "\\"): return Array("\\\\".utf8)
        case UInt8(ascii: "\n"): return Array("\\n".utf8)
        case UInt8(ascii: "\r"): return Array("\\r".utf8)
        case UInt8(ascii: "\t"): return Array("\\t".utf8)
        default:
            let hex = Array("0123456789abcdef".utf8)
            return Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        }
    }
}

/// A JSON object's bytes as they are built: keys in the order given, absent values left out.
private struct JSONLineBytes {
    var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var first = true

    init() {
        bytes.reserveCapacity(384)
    }

    mutating func key(_ key: ManifestKey) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: key.rawValue.utf8)
        bytes.append(contentsOf: "\":".utf8)
    }

    mutating func string(_ key: ManifestKey, _ value: String?) {
        guard let value else { return }
        self.key(key)
        ManifestRecord.appendQuoted(value, to: &bytes)
    }

    mutating func integer(_ key: ManifestKey, _ value: Int?) {
        guard let value else { return }
        self.key(key)
        bytes.append(contentsOf: String(value).utf8)
    }
}
