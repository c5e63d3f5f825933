import Foundation
import Testing

@testable import Pixpipe

@Suite("URL list fast paths equal the general ones")
struct ListFastPathTests {
    /// The trimming by characters, as it was before the two-byte shortcut.
    private func trimmedByCharacters(_ text: String) -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\u{FEFF}" }
        let text = Substring(text)
        guard let start = text.firstIndex(where: { !isBlank($0) }), let end = text.lastIndex(where: { !isBlank($0) })
        else { return text[text.endIndex...] }
        return text[start...end]
    }

    @Test(
        "Trimming a line gives what trimming it character by character gives",
        arguments: [
            "", " ", "\t\r ", "\u{FEFF}", "a", "https://e.com/a.png", " https://e.com/a.png", "https://e.com/a.png\r",
            "\u{FEFF}https://e.com/a", "x\u{301}", " \u{301}x", "x \u{301}", "\u{301}", "é", "https://e.com/é",
            "\r\n", "a\r\n", "\tb\t", "a b", "\u{FEFF}a\u{FEFF}", "#", "a\u{200D}", "1",
        ])
    func trimming(text: String) {
        #expect(text.trimmingListWhitespace() == trimmedByCharacters(text))
        #expect(Substring(text).trimmingListWhitespace() == trimmedByCharacters(text))
    }

    @Test(
        "The scheme is http or https in any case, nothing else",
        arguments: [
            ("http://e.com/a", true), ("HTTP://E.COM/A", true), ("hTtPs://e.com/", true), ("https://e.com", true),
            ("httpx://e.com/", false), ("htt://e.com/", false), ("ftp://e.com/", false), ("httpss://e.com/", false),
            ("hxxp://e.com/", false), ("h\u{0130}tp://e.com/", false),
        ])
    func scheme(text: String, accepted: Bool) {
        let result = URLListParser.validatedURL(text, line: 1)
        switch result {
        case .success: #expect(accepted)
        case .failure(let error): #expect(!accepted && ["unsupported-scheme", "invalid-url"].contains(error.shortName))
        }
    }
}
