/// A minimal GIF writer for tests: uncompressed LZW (literal codes with a clear code often enough that the
/// code width never grows), so a test controls every byte of a file it then damages, cuts or inflates.
struct GIFWriter {
    /// An RGB colour table entry.
    typealias Color = (red: UInt8, green: UInt8, blue: UInt8)

    /// The file so far.
    private(set) var bytes: [UInt8]
    /// Where each frame's LZW data starts and ends (from the code size byte to the block terminator).
    private(set) var imageData: [Range<Int>] = []
    /// The offsets where a record ends and the next may start (after the screen, each extension, each frame).
    private(set) var recordBoundaries: [Int] = []

    /// A header and logical screen; `palette` (padded to a power of two) is the global colour table.
    init(width: Int, height: Int, palette: [Color]? = nil, version: String = "GIF89a") {
        bytes = Array(version.utf8) + Self.word(width) + Self.word(height)
        if let palette {
            let bits = Self.tableBits(palette.count)
            bytes += [0x80 | 0x70 | UInt8(bits - 1), 0, 0]
            bytes += Self.table(palette, bits: bits)
        } else {
            bytes += [0x70, 0, 0]
        }
        recordBoundaries.append(bytes.count)
    }

    /// A NETSCAPE2.0 extension storing `repeats` (0 = forever).
    mutating func loop(repeats: Int) {
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + Self.word(repeats) + [0]
        recordBoundaries.append(bytes.count)
    }

    /// A graphic control extension for the next frame.
    mutating func control(disposal: Int = 0, delay: Int = 0, transparentIndex: Int? = nil) {
        let flags = UInt8(disposal & 7) << 2 | (transparentIndex == nil ? 0 : 1)
        bytes += [0x21, 0xF9, 4, flags] + Self.word(delay) + [UInt8(transparentIndex ?? 0), 0]
        recordBoundaries.append(bytes.count)
    }

    /// A comment extension (ignored by decoders).
    mutating func comment(_ text: String) {
        bytes += [0x21, 0xFE, UInt8(text.utf8.count)] + Array(text.utf8) + [0]
        recordBoundaries.append(bytes.count)
    }

    /// A frame of `indices` (row-major, `width * height` of them) at (`left`, `top`).
    mutating func frame(
        left: Int = 0, top: Int = 0, width: Int, height: Int, indices: [UInt8], palette: [Color]? = nil,
        interlaced: Bool = false, codeSize: Int = 8, damagedCode: Int? = nil
    ) {
        precondition(indices.count == width * height)
        var flags: UInt8 = interlaced ? 0x40 : 0
        var table: [UInt8] = []
        if let palette {
            let bits = Self.tableBits(palette.count)
            flags |= 0x80 | UInt8(bits - 1)
            table = Self.table(palette, bits: bits)
        }
        bytes += [0x2C] + Self.word(left) + Self.word(top) + Self.word(width) + Self.word(height) + [flags] + table
        var stored: [UInt8] = []
        for row in Self.storedRows(height: height, interlaced: interlaced) {
            stored += indices[(row * width)..<((row + 1) * width)]
        }
        let start = bytes.count
        bytes +=
            [UInt8(codeSize)] + Self.subBlocks(Self.literalLZW(stored, codeSize: codeSize, damagedCode: damagedCode))
            + [0]
        imageData.append(start..<bytes.count)
        recordBoundaries.append(bytes.count)
    }

    /// The trailer byte.
    mutating func trailer() { bytes.append(0x3B) }

    /// The rows of a frame in stored order.
    static func storedRows(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { pass in stride(from: pass.0, to: height, by: pass.1) }
    }

    /// LZW codes for `indices` with no string ever reused: a clear code, literals, a clear code again before
    /// the table would grow the code width, and the end code, packed least significant bit first.
    /// `damagedCode` replaces that code with the end code, as a damaged byte may (the data then ends early).
    static func literalLZW(_ indices: [UInt8], codeSize: Int, damagedCode: Int? = nil) -> [UInt8] {
        let clear = 1 << codeSize
        let width = codeSize + 1
        let run = codeSize >= 8 ? 240 : 1
        var codes: [Int] = []
        for (position, index) in indices.enumerated() {
            if position % run == 0 { codes.append(clear) }
            codes.append(Int(index))
        }
        if indices.isEmpty { codes.append(clear) }
        codes.append(clear + 1)
        if let damagedCode { codes[damagedCode] = clear + 1 }
        var packed: [UInt8] = []
        var accumulator = 0
        var bits = 0
        for code in codes {
            accumulator |= code << bits
            bits += width
            while bits >= 8 {
                packed.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { packed.append(UInt8(accumulator & 0xFF)) }
        return packed
    }

    private static func subBlocks(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < data.count {
            let end = min(start + 255, data.count)
            out.append(UInt8(end - start))
            out += data[start..<end]
            start = end
        }
        return out
    }

    private static func word(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }

    private static func tableBits(_ count: Int) -> Int {
        var bits = 1
        while 1 << bits < count { bits += 1 }
        return bits
    }

    private static func table(_ palette: [Color], bits: Int) -> [UInt8] {
        var out: [UInt8] = []
        for index in 0..<(1 << bits) {
            let color: Color = index < palette.count ? palette[index] : (0, 0, 0)
            out += [color.red, color.green, color.blue]
        }
        return out
    }
}
