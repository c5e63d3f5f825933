import Foundation

/// A PAM (P7) file, as the PngSuite references are stored: a text header, then raw 8-bit samples.
struct PAMImage {
    /// Why a PAM file could not be read.
    enum ReadError: Error {
        /// The header is malformed; `detail` says where.
        case badHeader(detail: String)
        /// The payload holds fewer bytes than the header promises.
        case shortPayload(expected: Int, actual: Int)
    }

    /// Width in pixels.
    var width: Int
    /// Height in pixels.
    var height: Int
    /// Channels per pixel (DEPTH).
    var depth: Int
    /// The samples, row-major, `depth` per pixel.
    var samples: [UInt8]

    /// Parses a PAM file with MAXVAL 255.
    init(bytes: [UInt8]) throws(ReadError) {
        let terminator = Array("ENDHDR\n".utf8)
        guard bytes.starts(with: Array("P7\n".utf8)),
            let end = Self.firstIndex(of: terminator, in: bytes)
        else { throw .badHeader(detail: "no P7 magic or no ENDHDR") }
        var fields: [String: String] = [:]
        let headerText = String(decoding: bytes[3..<end], as: UTF8.self)
        for line in headerText.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let width = fields["WIDTH"].flatMap({ Int($0) }), let height = fields["HEIGHT"].flatMap({ Int($0) }),
            let depth = fields["DEPTH"].flatMap({ Int($0) }), fields["MAXVAL"] == "255"
        else { throw .badHeader(detail: "fields \(fields)") }
        let payload = bytes[(end + terminator.count)...]
        let expected = width * height * depth
        guard payload.count >= expected else { throw .shortPayload(expected: expected, actual: payload.count) }
        self.width = width
        self.height = height
        self.depth = depth
        self.samples = Array(payload.prefix(expected))
    }

    /// Reads and parses the PAM file at `path`.
    init(contentsOfFile path: String) throws {
        try self.init(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
