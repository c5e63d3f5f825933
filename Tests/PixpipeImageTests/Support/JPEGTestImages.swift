import Foundation

@testable import PixpipeImage

/// Synthetic pictures and byte surgery for the JPEG tests.
enum JPEGTestImages {
    /// A smooth colour picture (gradients plus a soft disc), friendly to JPEG.
    static func colour(width: Int = 64, height: Int = 48) -> Image {
        var image = Image(width: width, height: height, pixelFormat: .rgb8)
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x - width / 2)
                let dy = Double(y - height / 2)
                let disc = max(0, 1 - (dx * dx + dy * dy).squareRoot() / Double(min(width, height)))
                image[x: x, y: y, channel: 0] = x * 255 / max(1, width - 1)
                image[x: x, y: y, channel: 1] = y * 255 / max(1, height - 1)
                image[x: x, y: y, channel: 2] = Int(disc * 255)
            }
        }
        return image
    }

    /// A smooth gray picture.
    static func gray(width: Int = 64, height: Int = 48) -> Image {
        var image = Image(width: width, height: height, pixelFormat: .gray8)
        for y in 0..<height {
            for x in 0..<width { image[x: x, y: y, channel: 0] = (x + y) * 255 / max(1, width + height - 2) }
        }
        return image
    }

    /// Peak signal-to-noise ratio in dB between two equally sized 8-bit sample arrays.
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count && !a.isEmpty)
        var squares = 0.0
        for index in a.indices {
            let difference = Double(Int(a[index]) - Int(b[index]))
            squares += difference * difference
        }
        let mse = squares / Double(a.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// The offset of the first marker `code` (the byte after 0xFF) in a JPEG, scanning segment by segment.
    static func markerOffset(_ code: UInt8, in bytes: [UInt8]) -> Int? {
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            if bytes[position + 1] == code { return position }
            if bytes[position + 1] == 0xDA { return nil }  // entropy-coded data follows: stop
            position += 2 + (Int(bytes[position + 2]) << 8 | Int(bytes[position + 3]))
        }
        return nil
    }

    /// The offset of the first SOFn marker (baseline 0xC0, progressive 0xC2, ...).
    static func frameOffset(in bytes: [UInt8]) -> Int? {
        for code: UInt8 in [0xC0, 0xC1, 0xC2, 0xC9, 0xCA] {
            if let offset = markerOffset(code, in: bytes) { return offset }
        }
        return nil
    }

    /// The first byte after the start-of-scan header: where entropy-coded data begins.
    static func scanDataOffset(in bytes: [UInt8]) -> Int? {
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            if bytes[position + 1] == 0xDA { return position + 2 + length }
            position += 2 + length
        }
        return nil
    }

    /// `bytes` with the frame header's size patched to `width` x `height`.
    static func patchingSize(_ bytes: [UInt8], width: Int, height: Int) -> [UInt8] {
        guard let sof = frameOffset(in: bytes) else { return bytes }
        var patched = bytes
        patched[sof + 5] = UInt8(height >> 8)
        patched[sof + 6] = UInt8(height & 0xFF)
        patched[sof + 7] = UInt8(width >> 8)
        patched[sof + 8] = UInt8(width & 0xFF)
        return patched
    }

    /// Encodes `image`, failing the test on error.
    static func encode(_ image: Image, _ options: JPEGEncodeOptions = .init()) throws -> [UInt8] {
        [UInt8](try image.encoded(as: .jpeg(options)))
    }

    /// Decodes through the JPEG decoder directly (no format sniffing).
    static func decode(_ bytes: [UInt8], _ options: DecodeOptions = .init()) throws(ImageDecodingError) -> Image {
        let result: Result<Image, ImageDecodingError> = bytes.withUnsafeBytes { buffer in
            do throws(ImageDecodingError) { return .success(try JPEGDecoder.decode(buffer, options: options)) } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads a header through the JPEG decoder directly.
    static func info(_ bytes: [UInt8]) throws(ImageDecodingError) -> ImageInfo {
        let result: Result<ImageInfo, ImageDecodingError> = bytes.withUnsafeBytes { buffer in
            do throws(ImageDecodingError) { return .success(try JPEGDecoder.info(buffer)) } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
