import PixpipeLocking

/// The `noai` and `noimageai` opt-outs of a response's `X-Robots-Tag` fields, for our product token.
///
/// Each field holds comma-separated directives, for every crawler (`noai`) or for one, named before a colon
/// (`Pixpipe: noai, noimageai`): a name that is not a directive with a value of its own (such as
/// `unavailable_after: DATE`) scopes the directives that follow it in the field. Names compare
/// case-insensitively; several fields add up.
enum NoAIDirectives {
    /// The directives that opt an image out of AI use.
    static let optOuts: Set<String> = ["noai", "noimageai"]
    /// Directives that take a value after a colon, so their name is not a crawler's.
    private static let valued: Set<String> = [
        "unavailable_after", "max-snippet", "max-image-preview", "max-video-preview",
    ]

    /// The opt-out directive the `X-Robots-Tag` values give `productToken` (`noai` or `noimageai`), if any.
    static func optOut(in values: some Sequence<String>, productToken: String) -> String? {
        let token = productToken.lowercased()
        for value in values {
            // Directives before any crawler name apply to every crawler.
            var scope: String?
            for piece in value.split(separator: ",") {
                var directive = piece.trimmingSpaces.lowercased()
                if let colon = directive.firstIndex(of: ":") {
                    let name = String(directive[..<colon]).trimmingSpaces
                    if !valued.contains(name) {
                        scope = name
                        directive = String(directive[directive.index(after: colon)...]).trimmingSpaces
                    }
                }
                if scope == nil || scope == token, optOuts.contains(directive) { return directive }
            }
        }
        return nil
    }
}

/// Refuses the body of a response whose `X-Robots-Tag` opts out of AI use, so the transfer stops at its head,
/// and shows accepted bodies to the item's digester (when it has one).
///
/// Why `Sendable` holds: the digester is itself `Sendable`, and the refusal is kept behind a lock (the
/// transport asks on its own thread; the item's task reads it after the transfer returned).
final class NoAIGate: ResponseHeadInspector {
    private let digester: BodyDigester?
    private let productToken: String
    private let refusal = Locked<String?>(nil)

    /// A gate for `productToken`'s opt-outs, passing bodies on to `digester`.
    init(digester: BodyDigester?, productToken: String) {
        self.digester = digester
        self.productToken = productToken
    }

    /// The opt-out directive that refused the last response, if it was refused.
    var refusedDirective: String? { refusal.withLock { $0 } }

    func acceptsBody(of head: ResponseMetadata) -> Bool {
        // Only answers with a body worth storing are judged: an error page's tag says nothing of the image.
        guard (200..<300).contains(head.statusCode) else { return true }
        let values = head.headers.lazy.filter { $0.name.lowercased() == "x-robots-tag" }.map(\.value)
        let directive = NoAIDirectives.optOut(in: values, productToken: productToken)
        refusal.withLock { $0 = directive }
        return directive == nil
    }

    func begin() { digester?.begin() }

    func observe(_ chunk: UnsafeRawBufferPointer) { digester?.observe(chunk) }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
