/// What each libtiff report means for the pixels: the one place TIFF's strictness is decided.
///
/// libtiff has no message codes: it reports through the per-handle error and warning handlers, and a
/// failing call returns -1 or 0. Warnings are libtiff fixing up a directory it still reads (an unknown
/// tag, a wrong count, a missing tag it supplies a default for), so every one is benign. Errors while
/// reading a strip or tile lose pixels: lenient mode keeps the whole strips and tiles before the failure
/// (the rest is zero), strict mode throws.
enum TIFFWarningTable {
    /// A libtiff warning.
    static let libraryWarning = WarningRule(
        libraryCode: "TIFFWarningExtR (any module)", kind: .benign, code: "tiff-library-warning",
        reason: "libtiff fixed up the directory (unknown tag, wrong count, a default supplied) and read it")
    /// Warnings past the ones a handle records.
    static let moreWarnings = WarningRule(
        libraryCode: "more than PXP_TIFF_MAX_WARNINGS warnings", kind: .benign, code: "tiff-more-warnings",
        reason: "libtiff's warnings are all fix-ups of a directory it read: the ones not recorded are too")
    /// The chain of directories points back to one already read.
    static let directoryLoop = WarningRule(
        libraryCode: "IFD looping (the next-directory offset of a page read before)", kind: .benign,
        code: "tiff-directory-loop",
        reason: "every page is read once; the loop only ends the chain, as libtiff ends it")
    /// A directory after the first lies outside the file or is cut short.
    static let directoryCut = WarningRule(
        libraryCode: "TIFFReadDirectory: a directory past the end of the file", kind: .truncated,
        code: "tiff-directory-cut", reason: "the pages from the cut directory on are missing")
    /// A strip or tile whose data ends past the end of the file.
    static let truncatedData = WarningRule(
        libraryCode: "TIFFFillStrip / TIFFFillTile: Read error (data past the end)", kind: .truncated,
        code: "tiff-truncated",
        reason: "the data ends inside a strip or tile: the whole strips and tiles before it are kept, the rest is zero")
    /// A strip or tile the codec could not decode.
    static let damagedData = WarningRule(
        libraryCode: "a codec's error in TIFFReadEncodedStrip / TIFFReadEncodedTile (LZW, Deflate, JPEG, CCITT...)",
        kind: .corrupt, code: "tiff-damaged-data",
        reason: "a strip or tile does not decode: the whole strips and tiles before it are kept, the rest is zero")

    /// A strip or tile the codec decoded with warnings only, then reported as failed.
    static let incompleteData = WarningRule(
        libraryCode: "TIFFReadEncodedStrip / TIFFReadEncodedTile returning -1 with warnings only (Fax3 premature EOL)",
        kind: .corrupt, code: "tiff-incomplete-data",
        reason: "libtiff's codec filled the short lines itself (as its RGBA interface shows them): the rows are "
            + "kept as decoded, but some pixels are guessed")

    /// Every row, in the order the README lists them.
    static let rows = [
        libraryWarning, moreWarnings, directoryLoop, directoryCut, truncatedData, damagedData, incompleteData,
    ]

    /// The rule for libtiff's error `message` while reading a strip or tile.
    static func readFailure(_ message: String) -> WarningRule {
        let lowered = message.lowercased()
        let cut = ["read error", "cannot read", "past end", "not enough data", "premature eof", "truncat"]
        return cut.contains { lowered.contains($0) } ? truncatedData : damagedData
    }

    /// The typed error for a read failure with `message`.
    static func readError(_ message: String) -> ImageDecodingError {
        readFailure(message).kind == .truncated
            ? .truncated(format: .tiff, reason: message) : .corrupt(format: .tiff, reason: message)
    }

    /// The typed error when libtiff refuses to open `bytes`: a truncation when the first directory lies
    /// past the end of the file, damage otherwise.
    static func openError(message: String, bytes: UnsafeRawBufferPointer) -> ImageDecodingError {
        guard let structure = TIFFStructure(bytes, limit: 1) else {
            return .truncated(format: .tiff, reason: message)
        }
        if structure.pages.isEmpty, case .cut = structure.stop { return .truncated(format: .tiff, reason: message) }
        return .corrupt(format: .tiff, reason: message)
    }
}
