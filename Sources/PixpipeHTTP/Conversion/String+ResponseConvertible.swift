import Foundation

extension String: ResponseConvertible {
    /// The body as text in the `charset` named by `Content-Type`, or UTF-8 when none is named.
    public init(body: Data, metadata: ResponseMetadata) throws(ConversionError) {
        let charset = metadata.charset ?? "utf-8"
        guard let encoding = TextEncoding.encoding(forCharset: charset) else {
            throw .unsupportedCharset(charset)
        }
        guard let text = String(data: body, encoding: encoding) else {
            throw .undecodableText(charset: charset)
        }
        self = text
    }
}

/// The IANA charset names this package understands, mapped to Foundation encodings.
enum TextEncoding {
    /// The encoding for an IANA charset name (case-insensitive), or `nil` when unknown.
    static func encoding(forCharset charset: String) -> String.Encoding? {
        switch charset.lowercased() {
        case "utf-8", "utf8": .utf8
        case "us-ascii", "ascii": .ascii
        case "iso-8859-1", "latin1", "iso_8859-1", "l1": .isoLatin1
        case "iso-8859-2", "latin2": .isoLatin2
        case "windows-1252", "cp1252": .windowsCP1252
        case "windows-1250", "cp1250": .windowsCP1250
        case "windows-1251", "cp1251": .windowsCP1251
        case "utf-16": .utf16
        case "utf-16le": .utf16LittleEndian
        case "utf-16be": .utf16BigEndian
        case "utf-32": .utf32
        case "utf-32le": .utf32LittleEndian
        case "utf-32be": .utf32BigEndian
        case "shift_jis", "shift-jis", "sjis": .shiftJIS
        case "euc-jp": .japaneseEUC
        case "iso-2022-jp": .iso2022JP
        default: nil
        }
    }
}
