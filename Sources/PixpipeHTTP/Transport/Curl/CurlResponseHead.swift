/// A response's status line and header fields, as the header callback collected them.
///
/// The fields stay in the bytes they arrived in until someone asks for them as strings. The engine thread
/// only looks up a few (Location, Content-Length, Content-Encoding), byte by byte; the strings are made by
/// the waiting task, off the engine thread, whose time per response bounds how fast small files come in.
struct CurlResponseHead: Sendable, Hashable {
    /// Where one field's name and value sit in ``storage``.
    struct FieldRange: Sendable, Hashable {
        var name: Range<Int>
        var value: Range<Int>
    }

    /// The status code (200, 404, ...).
    var statusCode: Int
    /// The protocol from the status line (`HTTP/1.1`, `HTTP/2`).
    var httpVersion: String
    /// The header lines' bytes; ``fields`` index into them.
    private(set) var storage: [UInt8]
    /// The fields in the order received.
    private(set) var fields: [FieldRange]

    /// A head over bytes a parser collected.
    init(statusCode: Int, httpVersion: String, storage: [UInt8], fields: [FieldRange]) {
        self.statusCode = statusCode
        self.httpVersion = httpVersion
        self.storage = storage
        self.fields = fields
    }

    /// A head with these fields (for tests and for heads not read from the wire).
    init(statusCode: Int, httpVersion: String, headers: [CurlHeaderField]) {
        var storage: [UInt8] = []
        var fields: [FieldRange] = []
        for field in headers {
            let nameStart = storage.count
            storage.append(contentsOf: field.name.utf8)
            let valueStart = storage.count
            storage.append(contentsOf: field.value.utf8)
            fields.append(FieldRange(name: nameStart..<valueStart, value: valueStart..<storage.count))
        }
        self.init(statusCode: statusCode, httpVersion: httpVersion, storage: storage, fields: fields)
    }

    /// Header fields in the order received, as strings.
    var headers: [CurlHeaderField] {
        fields.map { CurlHeaderField(name: string(at: $0.name), value: string(at: $0.value)) }
    }

    /// The fields as ``HTTPHeaders``, each name and value made a string once, straight from the bytes.
    var httpHeaders: HTTPHeaders {
        var headers = HTTPHeaders(capacity: fields.count)
        for field in fields { headers.add(name: string(at: field.name), value: string(at: field.value)) }
        return headers
    }

    /// The first value of a header, compared case-insensitively.
    func value(for name: String) -> String? {
        valueRange(for: name).map(string(at:))
    }

    /// The Content-Length header, when present and a valid non-negative number.
    var contentLength: Int64? {
        guard let range = valueRange(for: "Content-Length"), !range.isEmpty, range.count <= 18 else { return nil }
        var length: Int64 = 0
        for byte in storage[range] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            length = length * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return length
    }

    /// Whether the body arrives with a content coding (then Content-Length counts encoded bytes).
    var hasContentEncoding: Bool {
        guard let range = valueRange(for: "Content-Encoding") else { return false }
        return !asciiCaseInsensitiveEquals(storage[range], "identity".utf8)
    }

    static func == (left: Self, right: Self) -> Bool {
        left.statusCode == right.statusCode && left.httpVersion == right.httpVersion && left.headers == right.headers
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(statusCode)
        hasher.combine(httpVersion)
        hasher.combine(headers)
    }

    /// The value of the first field named `name`: lengths first, then the bytes of same-length names, over
    /// raw buffers (the engine thread asks this a few times per response; a slice-and-view comparison of
    /// every field showed in its profile).
    private func valueRange(for name: String) -> Range<Int>? {
        var name = name
        return name.withUTF8 { wanted in
            storage.withUnsafeBufferPointer { bytes in
                for field in fields where field.name.count == wanted.count {
                    if asciiCaseInsensitiveEquals(UnsafeBufferPointer(rebasing: bytes[field.name]), wanted) {
                        return field.value
                    }
                }
                return nil
            }
        }
    }

    private func string(at range: Range<Int>) -> String {
        storage.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }
}
