import Pixpipe

/// Writes an animated GIF of RGB frames, small enough to read in one sitting: Pixpipe reads GIF but does not
/// write it, and the sample site needs one animated comic.
///
/// Colours are mapped to a fixed 6x6x6 colour cube (no dithering), and the image data uses LZW without any
/// compression: only literal codes, with a clear code often enough that the code width stays at 9 bits.
/// Files are about 1.1 bytes per pixel per frame, fine for a demo.
enum AnimatedGIF {
    /// The levels of each channel in the colour cube.
    private static let levels = 6

    /// A GIF89a of `frames` (all of one size, RGB 8-bit) shown `delayCentiseconds` each, looping forever.
    static func encode(_ frames: [Image], delayCentiseconds: Int) -> [UInt8] {
        guard let first = frames.first else { return [] }
        var bytes = Array("GIF89a".utf8) + word(first.width) + word(first.height)
        // A global colour table of 256 entries (size field 7), 8 bits of colour resolution.
        bytes += [0xF7, 0, 0] + palette()
        // NETSCAPE2.0 application extension: loop count 0, forever.
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for frame in frames {
            // Graphic control extension: no disposal needed (every frame covers the canvas), the delay.
            bytes += [0x21, 0xF9, 4, 0] + word(delayCentiseconds) + [0, 0]
            bytes += [0x2C, 0, 0, 0, 0] + word(frame.width) + word(frame.height) + [0]
            bytes += [8] + subBlocks(literalCodes(indices(of: frame))) + [0]
        }
        return bytes + [0x3B]
    }

    /// The colour cube, padded with black to 256 entries.
    private static func palette() -> [UInt8] {
        var table: [UInt8] = []
        for red in 0..<levels {
            for green in 0..<levels {
                for blue in 0..<levels {
                    table += [red, green, blue].map { UInt8($0 * 255 / (levels - 1)) }
                }
            }
        }
        return table + [UInt8](repeating: 0, count: 768 - table.count)
    }

    /// Each pixel's nearest cube entry, row by row.
    private static func indices(of image: Image) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(image.width * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let steps = (0..<3).map { (image[x: x, y: y, channel: $0] * (levels - 1) + 127) / 255 }
                result.append((steps[0] * levels + steps[1]) * levels + steps[2])
            }
        }
        return result
    }

    /// The LZW stream for `indices` at code size 8 (clear 256, end 257), packed least significant bit first.
    ///
    /// A decoder adds a table entry for every code after the first following a clear; the width grows to
    /// 10 bits when the table reaches 512 entries, so a clear every 250 literals keeps every code 9 bits.
    private static func literalCodes(_ indices: [Int]) -> [UInt8] {
        let clear = 256
        var packed: [UInt8] = []
        var accumulator = 0
        var bits = 0
        func put(_ code: Int) {
            accumulator |= code << bits
            bits += 9
            while bits >= 8 {
                packed.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bits -= 8
            }
        }
        for (position, index) in indices.enumerated() {
            if position % 250 == 0 { put(clear) }
            put(index)
        }
        put(clear + 1)
        if bits > 0 { packed.append(UInt8(accumulator & 0xFF)) }
        return packed
    }

    /// `data` cut into sub-blocks of at most 255 bytes, each after its length.
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

    /// A little-endian 16-bit value.
    private static func word(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
}
