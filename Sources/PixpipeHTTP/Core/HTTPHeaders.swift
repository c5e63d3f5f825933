/// HTTP header fields: ordered, with case-insensitive lookup by name.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// headers["authorization"] = "Bearer abc"
/// print(headers["ACCEPT"] ?? "")   // application/json
/// ```
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field as a name and a value.
    public typealias Field = (name: String, value: String)

    /// A field as stored: a struct rather than the `Field` tuple, because arrays of tuples are copied and
    /// destroyed through the runtime's generic tuple witnesses, which showed in profiles of every response.
    fileprivate struct Entry {
        var name: String
        var value: String
    }

    private var storage: [Entry] = []

    /// Empty headers.
    public init() {}

    /// Empty headers with room for `count` fields.
    init(capacity count: Int) {
        storage.reserveCapacity(count)
    }

    /// Headers from name-value pairs, in order.
    public init(_ fields: [(String, String)]) {
        for (name, value) in fields { add(name: name, value: value) }
    }

    /// Headers from a dictionary literal.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The value of the first field named `name` (case-insensitive); setting replaces every field so named,
    /// and setting `nil` removes them.
    public subscript(name: String) -> String? {
        get { storage.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            guard let newValue else {
                remove(name: name)
                return
            }
            if let index = storage.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) {
                storage[index].value = newValue
                storage.removeAll { $0.name.caseInsensitiveEquals(name) && $0.value != newValue }
            } else {
                storage.append(Entry(name: name, value: newValue))
            }
        }
    }

    /// Appends a field, keeping any existing fields of the same name.
    public mutating func add(name: String, value: String) {
        storage.append(Entry(name: name, value: value))
    }

    /// Removes every field named `name` (case-insensitive).
    public mutating func remove(name: String) {
        storage.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Whether a field named `name` exists (case-insensitive).
    public func contains(_ name: String) -> Bool {
        storage.contains { $0.name.caseInsensitiveEquals(name) }
    }

    /// The number of fields.
    public var count: Int { storage.count }

    /// Iterates the fields in order.
    public func makeIterator() -> Iterator {
        Iterator(entries: storage.makeIterator())
    }

    /// The fields in order, as name-value pairs.
    public struct Iterator: IteratorProtocol {
        fileprivate var entries: IndexingIterator<[Entry]>

        /// The next field, or `nil` after the last.
        public mutating func next() -> Field? {
            entries.next().map { ($0.name, $0.value) }
        }
    }

    /// The fields, one `Name: value` per line.
    public var description: String {
        storage.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// Equal when the same fields appear in the same order; names compare case-insensitively.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.storage.count == rhs.storage.count
            && zip(lhs.storage, rhs.storage).allSatisfy {
                $0.name.caseInsensitiveEquals($1.name) && $0.value == $1.value
            }
    }

    /// Hashes lower-cased names and values, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        for field in storage {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }
}

extension String {
    /// ASCII case-insensitive comparison, which is what HTTP field names and tokens need.
    ///
    /// Byte by byte, without allocating: every response's fields are looked up this way, and lower-casing
    /// both sides (or Foundation's locale-aware comparison) cost more than the rest of the header handling.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        asciiCaseInsensitiveEquals(utf8, other.utf8)
    }
}

/// Whether two byte strings are equal when the case of ASCII letters is ignored (other bytes must match).
func asciiCaseInsensitiveEquals(_ left: some Collection<UInt8>, _ right: some Collection<UInt8>) -> Bool {
    guard left.count == right.count else { return false }
    return zip(left, right).allSatisfy { left, right in
        left == right || (left | 0x20 == right | 0x20 && (left | 0x20) >= 0x61 && (left | 0x20) <= 0x7A)
    }
}
