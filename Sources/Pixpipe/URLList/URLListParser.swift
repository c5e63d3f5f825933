import Foundation

/// Reads a URL list line by line: a pure state machine, with no I/O, that never traps on any input.
///
/// Feed it the lines in order; each yields an entry, an error for that line, or nothing (blank lines,
/// `#` comments, the CSV/TSV header, lines inside a multi-line quoted field). ``URLList`` drives it over a
/// file; tests and fuzzers can drive it directly.
///
/// ```swift
/// var parser = URLListParser()
/// parser.parse(line: "url,name", number: 1)                        // nil: the header
/// parser.parse(line: "https://example.com/a.png,First", number: 2)  // .success(entry named "First")
/// ```
public struct URLListParser: Sendable {
    /// The format in use: given, or detected from the first line that is neither blank nor a comment.
    public private(set) var format: URLListFormat?
    /// Whether a list-ending error was reported; later lines yield nothing.
    public private(set) var isFinished = false
    /// The longest CSV/TSV record, in UTF-8 bytes, across the lines of a multi-line quoted field.
    public let maximumRecordBytes: Int

    /// The other columns (CSV/TSV) or keys (JSON Lines) whose values entries keep, lowercased; none by default,
    /// so a list read for its URLs alone builds no table per entry.
    public var keptColumns: Set<String> = []

    /// Where the `url` and `name` columns are, once the CSV/TSV header has been read.
    private var columns: (url: Int, name: Int?)?
    /// Where the kept columns are, by name, once the CSV/TSV header has been read.
    private var keptPositions: [(name: String, position: Int)] = []
    /// A CSV/TSV record whose quoted field continues on the next line, with the line it started on.
    private var openRecord: (text: String, line: Int)?

    /// A parser for lists in `format`, or in a format detected from the content when `nil`.
    public init(format: URLListFormat? = nil, maximumRecordBytes: Int = 262_144) {
        self.format = format
        self.maximumRecordBytes = maximumRecordBytes
    }

    /// Reads line `number` (1-based, without its line break).
    public mutating func parse(line: Substring, number: Int) -> Result<URLListEntry, URLListError>? {
        candidate(line: line, number: number).map { $0.flatMap(Self.entry) }
    }

    /// Reads line `number` like ``parse(line:number:)``, with the same outcome, but without building a `URL`
    /// when the line's URL is a plain one (see ``URLList/CheckedEntry``): for a pass that only counts the entries.
    public mutating func check(line: Substring, number: Int) -> Result<URLList.CheckedEntry, URLListError>? {
        candidate(line: line, number: number).map { $0.flatMap(Self.checkedEntry) }
    }

    /// The URL text of line `number` and its name, before the URL is checked; `nil` for a line with no entry.
    private mutating func candidate(line: Substring, number: Int) -> Result<Candidate, URLListError>? {
        guard !isFinished else { return nil }
        if let open = openRecord {
            return continueRecord(open, with: line)
        }
        let trimmed = line.trimmingListWhitespace()
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        let format = self.format ?? URLListFormat.detect(firstLine: trimmed)
        self.format = format
        switch format {
        case .lines: return Self.candidate(urlText: trimmed, name: nil, line: number)
        case .jsonl: return Self.jsonCandidate(trimmed, line: number, kept: keptColumns)
        case .csv, .tsv: return delimitedRecord(String(line), line: number)
        }
    }

    /// Ends the list; reports a quoted field left open.
    public mutating func finish() -> Result<URLListEntry, URLListError>? {
        guard let open = openRecord, !isFinished else { return nil }
        openRecord = nil
        return .failure(.unterminatedQuote(line: open.line))
    }

    /// A list's URL text with its name and line, trimmed and not empty, before it is checked as a URL.
    struct Candidate {
        /// The URL's text.
        var text: Substring
        /// The entry's name, trimmed, `nil` when empty.
        var name: String?
        /// The line the entry starts on.
        var line: Int
        /// The kept columns' values (see ``URLListParser/keptColumns``).
        var columns: [String: String] = [:]
    }

    /// Marks the list as ended after a failure outside the parser (a read error).
    public mutating func stop() {
        isFinished = true
        openRecord = nil
    }

    private mutating func continueRecord(
        _ open: (text: String, line: Int), with line: Substring
    ) -> Result<Candidate, URLListError>? {
        let text = open.text + "\n" + line
        guard text.utf8.count <= maximumRecordBytes else {
            openRecord = nil
            return .failure(.unterminatedQuote(line: open.line))
        }
        return delimitedRecord(text, line: open.line)
    }

    private mutating func delimitedRecord(_ text: String, line: Int) -> Result<Candidate, URLListError>? {
        let delimiter: Unicode.Scalar = format == .tsv ? "\t" : ","
        openRecord = nil
        switch DelimitedRecord.split(Substring(text), delimiter: delimiter) {
        case .openQuote:
            openRecord = (text, line)
            return nil
        case .fields(let fields):
            guard let columns else {
                return readHeader(fields, line: line)
            }
            guard columns.url < fields.count else { return .failure(.missingURL(line: line)) }
            let name = columns.name.flatMap { $0 < fields.count ? fields[$0] : nil }
            var candidate = Self.candidate(urlText: Substring(fields[columns.url]), name: name, line: line)
            if !keptPositions.isEmpty, case .success(var found) = candidate {
                for (name, position) in keptPositions where position < fields.count {
                    let value = String(fields[position].trimmingListWhitespace())
                    if !value.isEmpty { found.columns[name] = value }
                }
                candidate = .success(found)
            }
            return candidate
        }
    }

    private mutating func readHeader(_ fields: [String], line: Int) -> Result<Candidate, URLListError>? {
        let names = fields.map { $0.trimmingListWhitespace().lowercased() }
        guard let url = names.firstIndex(of: "url") else {
            isFinished = true
            return .failure(.missingURLColumn(header: fields, line: line))
        }
        columns = (url, names.firstIndex(of: "name"))
        keptPositions = names.enumerated().compactMap { position, name in
            keptColumns.contains(name) ? (name, position) : nil
        }
        return nil
    }

    private static func jsonCandidate(
        _ text: Substring, line: Int, kept: Set<String>
    ) -> Result<Candidate, URLListError> {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        } catch {
            return .failure(.malformedJSON(reason: "not valid JSON", line: line))
        }
        guard let dictionary = object as? [String: Any] else {
            return .failure(.malformedJSON(reason: "not an object", line: line))
        }
        let name = dictionary["name"]
        guard name == nil || name is String || name is NSNull else {
            return .failure(.malformedJSON(reason: "'name' is not a string", line: line))
        }
        guard let url = dictionary["url"], !(url is NSNull) else { return .failure(.missingURL(line: line)) }
        guard let urlText = url as? String else {
            return .failure(.malformedJSON(reason: "'url' is not a string", line: line))
        }
        var found = candidate(urlText: Substring(urlText), name: name as? String, line: line)
        if !kept.isEmpty, case .success(var entry) = found {
            for (key, value) in dictionary where kept.contains(key.lowercased()) {
                // Strings and numbers (a chapter number is often written as one); others are not text.
                let text = (value as? String) ?? (value as? NSNumber).map { "\($0)" }
                if let text, !text.isEmpty { entry.columns[key.lowercased()] = text }
            }
            found = .success(entry)
        }
        return found
    }

    /// The candidate for `urlText` on `line`, or ``URLListError/missingURL(line:)`` when it is blank.
    private static func candidate(urlText: Substring, name: String?, line: Int) -> Result<Candidate, URLListError> {
        let text = urlText.trimmingListWhitespace()
        guard !text.isEmpty else { return .failure(.missingURL(line: line)) }
        let cleanName = name.map { String($0.trimmingListWhitespace()) }.flatMap { $0.isEmpty ? nil : $0 }
        return .success(Candidate(text: text, name: cleanName, line: line))
    }

    /// The entry for `candidate`, or why its text is not a usable URL.
    private static func entry(_ candidate: Candidate) -> Result<URLListEntry, URLListError> {
        validatedURL(String(candidate.text), line: candidate.line).map {
            URLListEntry(url: $0, name: candidate.name, line: candidate.line, columns: candidate.columns)
        }
    }

    /// The checked entry for `candidate`: a plain URL by its bytes, any other through ``validatedURL(_:line:)``.
    private static func checkedEntry(_ candidate: Candidate) -> Result<URLList.CheckedEntry, URLListError> {
        if PlainHTTPURL.accepts(candidate.text) {
            return .success(URLList.CheckedEntry(absoluteString: candidate.text, line: candidate.line))
        }
        return validatedURL(String(candidate.text), line: candidate.line).map {
            URLList.CheckedEntry(absoluteString: Substring($0.absoluteString), line: candidate.line)
        }
    }

    /// `text` as an absolute http or https URL with a host, or the reason it is not one.
    public static func validatedURL(_ text: String, line: Int) -> Result<URL, URLListError> {
        guard let url = URL(string: text), let scheme = url.scheme else {
            return .failure(.invalidURL(text: text, line: line))
        }
        guard isHTTPScheme(scheme) else {
            return .failure(.unsupportedScheme(scheme: scheme, text: text, line: line))
        }
        guard let host = url.host, !host.isEmpty else { return .failure(.invalidURL(text: text, line: line)) }
        return .success(url)
    }

    /// Whether `scheme` is `http` or `https` in any case, compared by bytes (no lowercased copy per URL).
    private static func isHTTPScheme(_ scheme: String) -> Bool {
        var scheme = scheme
        return scheme.withUTF8 { bytes in
            guard bytes.count == 4 || bytes.count == 5 else { return false }
            // `| 0x20` lowercases an ASCII letter and turns no other byte into one of these letters.
            return bytes[0] | 0x20 == UInt8(ascii: "h") && bytes[1] | 0x20 == UInt8(ascii: "t")
                && bytes[2] | 0x20 == UInt8(ascii: "t") && bytes[3] | 0x20 == UInt8(ascii: "p")
                && (bytes.count == 4 || bytes[4] | 0x20 == UInt8(ascii: "s"))
        }
    }
}
