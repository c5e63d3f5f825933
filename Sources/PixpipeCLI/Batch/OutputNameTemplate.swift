/// The `--name` template of `pixpipe thumbnail` and batch `convert`: output file names from `{name}`, `{dir}`,
/// `{width}`, `{height}`, `{ext}`.
struct OutputNameTemplate: Sendable, Hashable {
    /// The placeholders a template may use.
    static let placeholders = ["name", "dir", "width", "height", "ext"]

    /// The template text, such as `{name}-{width}x{height}.{ext}`.
    let text: String

    /// The default: the input's base name with the output format's extension.
    static let standard = OutputNameTemplate(checked: "{name}.{ext}")

    private init(checked text: String) {
        self.text = text
    }

    /// A template, checked: known placeholders only, balanced braces, and no `/` (names, not paths).
    init(_ text: String) throws(UsageError) {
        let invalid = UsageError.invalidValue(
            option: "--name", value: text,
            expected: "a file name using {name}, {dir}, {width}, {height} and {ext}, without '/'")
        guard !text.isEmpty, !text.contains("/") else { throw invalid }
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}"),
                Self.placeholders.contains(String(rest[rest.index(after: open)..<close]))
            else { throw invalid }
            rest = rest[rest.index(after: close)...]
        }
        self.text = text
    }

    /// Whether the template needs the output size, known only from the image's header.
    var needsSize: Bool { text.contains("{width}") || text.contains("{height}") }

    /// The file name for an input whose base name (without extension) is `name`, in the folder named
    /// `directory` (its last component only, so the name holds no `/`).
    func render(name: String, directory: String, width: Int?, height: Int?, fileExtension: String) -> String {
        text.replacingOccurrences(of: "{name}", with: name)
            .replacingOccurrences(of: "{dir}", with: directory)
            .replacingOccurrences(of: "{width}", with: width.map(String.init) ?? "0")
            .replacingOccurrences(of: "{height}", with: height.map(String.init) ?? "0")
            .replacingOccurrences(of: "{ext}", with: fileExtension)
    }

    /// `fileName` with `-counter` before its extension: `a.jpg` becomes `a-2.jpg`.
    static func suffixed(_ fileName: String, counter: Int) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return "\(fileName)-\(counter)" }
        return "\(fileName[..<dot])-\(counter)\(fileName[dot...])"
    }
}
