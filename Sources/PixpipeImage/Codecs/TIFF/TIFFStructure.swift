/// The chain of a TIFF's directories (pages), read from the bytes without libtiff and without allocating
/// per entry: byte order, classic or BigTIFF, and for each directory in the main chain the few tags that
/// give its size and pixel layout.
///
/// Reading stops at `limit` + 1 directories, at a directory already seen (a loop, which libtiff also
/// refuses to follow), at an offset outside the file, or at a directory cut short: a crafted chain of a
/// million tiny directories costs at most `limit` + 1 steps.
struct TIFFStructure {
    /// What one directory says about its image, from its own entries.
    struct Page: Sendable, Hashable {
        /// ImageWidth and ImageLength (0 when absent).
        var width = 0
        /// See ``width``.
        var height = 0
        /// The first BitsPerSample value (1 when absent, as the specification says).
        var bitsPerSample = 1
        /// SamplesPerPixel (1 when absent).
        var samplesPerPixel = 1
        /// PhotometricInterpretation (`nil` when absent).
        var photometric: Int?
        /// Compression (1 when absent).
        var compression = 1
        /// Where the directory starts in the file.
        var offset: UInt64 = 0
    }

    /// Why the walk stopped before a directory's next-offset of zero.
    enum Stop: Sendable, Hashable {
        /// The chain ended normally.
        case end
        /// More directories than the limit.
        case overLimit
        /// A directory points back to one already read.
        case loop(offset: UInt64)
        /// A directory lies outside the file or is cut short.
        case cut(offset: UInt64)
    }

    /// Whether the file is big-endian (`MM`).
    let bigEndian: Bool
    /// Whether the file is a BigTIFF (version 43, 64-bit offsets).
    let isBigTIFF: Bool
    /// The directories read, in chain order.
    private(set) var pages: [Page] = []
    /// Why the walk stopped.
    private(set) var stop = Stop.end

    /// Whether `prefix` starts a TIFF or BigTIFF file.
    static func hasSignature(_ prefix: [UInt8]) -> Bool {
        guard prefix.count >= 4 else { return false }
        let order = (prefix[0], prefix[1])
        if order == (0x49, 0x49) { return prefix[3] == 0 && (prefix[2] == 42 || prefix[2] == 43) }
        if order == (0x4D, 0x4D) { return prefix[2] == 0 && (prefix[3] == 42 || prefix[3] == 43) }
        return false
    }

    /// Walks the main chain of `bytes`, reading at most `limit` + 1 directories; `nil` when the header is
    /// not a TIFF header.
    init?(_ bytes: UnsafeRawBufferPointer, limit: Int) {
        guard bytes.count >= 8, Self.hasSignature(Array(bytes.prefix(4))) else { return nil }
        bigEndian = bytes[0] == 0x4D
        let reader = Reader(bytes: bytes, bigEndian: bigEndian)
        isBigTIFF = reader.u16(2) == 43
        guard let first = isBigTIFF ? (bytes.count >= 16 ? reader.u64(8) : nil) : reader.u32(4).map(UInt64.init)
        else { return nil }
        var offset = first
        var seen = Set<UInt64>()
        while offset != 0 {
            if pages.count > limit {
                stop = .overLimit
                return
            }
            guard seen.insert(offset).inserted else {
                stop = .loop(offset: offset)
                return
            }
            guard let (page, next) = reader.directory(at: offset, bigTIFF: isBigTIFF) else {
                stop = .cut(offset: offset)
                return
            }
            var located = page
            located.offset = offset
            pages.append(located)
            offset = next
        }
    }

    /// Reads integers of the file's byte order, `nil` outside the bytes.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        let bigEndian: Bool

        func value(_ offset: UInt64, size: Int) -> UInt64? {
            guard offset <= UInt64(bytes.count), UInt64(bytes.count) - offset >= UInt64(size) else { return nil }
            var result: UInt64 = 0
            for index in 0..<size {
                let byte = UInt64(bytes[Int(offset) + (bigEndian ? index : size - 1 - index)])
                result = result << 8 | byte
            }
            return result
        }

        func u16(_ offset: UInt64) -> Int? { value(offset, size: 2).map(Int.init) }
        func u32(_ offset: UInt64) -> UInt32? { value(offset, size: 4).map { UInt32($0) } }
        func u64(_ offset: UInt64) -> UInt64? { value(offset, size: 8) }

        /// The directory at `offset` and the offset of the next, or `nil` when it is cut.
        func directory(at offset: UInt64, bigTIFF: Bool) -> (Page, UInt64)? {
            let countSize = bigTIFF ? 8 : 2
            let entrySize: UInt64 = bigTIFF ? 20 : 12
            guard let count = value(offset, size: countSize) else { return nil }
            let entries = offset + UInt64(countSize)
            guard count < 1 << 20, let next = value(entries + count * entrySize, size: bigTIFF ? 8 : 4) else {
                return nil
            }
            var page = Page()
            for index in 0..<count {
                let entry = entries + index * entrySize
                guard let tag = u16(entry), let type = u16(entry + 2) else { return nil }
                // The first value: inline for the tags read here (BitsPerSample's first value when its
                // several values are stored elsewhere is read at the offset).
                let valueField = entry + (bigTIFF ? 12 : 8)
                let fieldCount = value(entry + 4, size: bigTIFF ? 8 : 4) ?? 0
                let typeSize = type == 3 ? 2 : 4
                var location = valueField
                if fieldCount * UInt64(typeSize) > (bigTIFF ? 8 : 4) {
                    guard let pointer = value(valueField, size: bigTIFF ? 8 : 4) else { continue }
                    location = pointer
                }
                guard type == 3 || type == 4, let first = value(location, size: typeSize).map(Int.init) else {
                    continue
                }
                switch tag {
                case 256: page.width = first
                case 257: page.height = first
                case 258: page.bitsPerSample = first
                case 259: page.compression = first
                case 262: page.photometric = first
                case 277: page.samplesPerPixel = first
                default: break
                }
            }
            return (page, next)
        }
    }
}
