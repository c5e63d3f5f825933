import Foundation

@testable import PixpipeImage

/// JPEG XL files the tests make: small encodes, and crafted headers for the bomb tests.
enum JXLTestFiles {
    /// A `width` x `height` RGB gradient.
    static func gradient(width: Int = 64, height: Int = 48, shade: Int = 0) -> Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 3
                pixels[index] = UInt8((x * 255 / max(width - 1, 1) + shade) % 256)
                pixels[index + 1] = UInt8(y * 255 / max(height - 1, 1))
                pixels[index + 2] = UInt8(shade % 256)
            }
        }
        return Image(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }

    /// A lossless still of ``gradient(width:height:shade:)``.
    static func still(width: Int = 64, height: Int = 48) throws -> Data {
        try gradient(width: width, height: height).encoded(as: .jxl(JXLEncodeOptions(lossless: true, effort: 3)))
    }

    /// A lossless animation of `count` frames of `milliseconds` each, each its own shade.
    static func animation(count: Int, milliseconds: Int = 100, width: Int = 32, height: Int = 24) throws -> Data {
        let frames = (0..<count).map { index in
            AnimationFrame(
                index: index, image: gradient(width: width, height: height, shade: index * 50),
                duration: .milliseconds(milliseconds))
        }
        return try ImageEncoding.jxl(JXLEncodeOptions(lossless: true, effort: 1)).encodeAnimation(frames, loopCount: 0)
    }

    /// A bare codestream whose header declares `width` x `height` (default metadata: 8-bit sRGB) and no
    /// frame: a few bytes whose size alone would need gigabytes.
    static func declaredSize(width: Int, height: Int) -> Data {
        var writer = BitWriter()
        writer.write(0, bits: 1)  // not a small (multiple of 8) size
        writer.write(3, bits: 2)  // height: 30-bit field
        writer.write(UInt64(height - 1), bits: 30)
        writer.write(0, bits: 3)  // no ratio: the width follows
        writer.write(3, bits: 2)
        writer.write(UInt64(width - 1), bits: 30)
        writer.write(1, bits: 1)  // all_default image metadata
        return Data([0xFF, 0x0A] + writer.bytes + [UInt8](repeating: 0, count: 8))
    }

    /// An animation of `count` identical 1 x 1 frames, made by repeating the bytes of a middle frame of a
    /// three-frame encode (JPEG XL frames start on byte boundaries and the middle ones are alike).
    static func manyFrames(_ count: Int) throws -> Data {
        let pixel = Image(width: 1, height: 1, pixelFormat: .rgb8, pixels: [10, 20, 30])
        func encode(_ frames: Int) throws -> [UInt8] {
            let animation = (0..<frames).map { AnimationFrame(index: $0, image: pixel, duration: .milliseconds(10)) }
            return [UInt8](
                try ImageEncoding.jxl(JXLEncodeOptions(lossless: true, effort: 1)).encodeAnimation(
                    animation, loopCount: 0))
        }
        let three = try encode(3)
        let four = try encode(4)
        let frameSize = four.count - three.count
        // The shared head, then frames; find a split where four = three[..<k] + middle + three[k...].
        for split in stride(from: three.count - frameSize, through: 2, by: -1) {
            let middle = Array(four[split..<(split + frameSize)])
            if Array(four[..<split]) == Array(three[..<split]),
                Array(four[(split + frameSize)...]) == Array(three[split...]),
                Array(three[(split - frameSize)..<split]) == middle
            {
                var bytes = Array(three[..<split])
                bytes.reserveCapacity(three.count + frameSize * count)
                for _ in 0..<(count - 3) { bytes += middle }
                bytes += three[split...]
                return Data(bytes)
            }
        }
        throw ImageDecodingError.corrupt(format: .jxl, reason: "no repeatable frame found")
    }

    /// Bits packed least significant first, as JPEG XL reads them.
    struct BitWriter {
        var bytes: [UInt8] = []
        var count = 0

        mutating func write(_ value: UInt64, bits: Int) {
            for bit in 0..<bits {
                if count % 8 == 0 { bytes.append(0) }
                if value >> UInt64(bit) & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1 << (count % 8)) }
                count += 1
            }
        }
    }
}
