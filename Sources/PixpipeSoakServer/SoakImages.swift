import Foundation
import PixpipeImage
import PixpipeLocking

/// The image behind each soak URL: small, distinct per index (so every stored file has its own hash),
/// PNG for even indexes and JPEG for odd ones, made once and kept.
final class SoakImages: Sendable {
    private let cache = Locked([Int: [UInt8]]())

    /// The file extension of URL number `index`, matching the format of its bytes.
    static func fileExtension(of index: Int) -> String {
        index.isMultiple(of: 2) ? "png" : "jpg"
    }

    /// The encoded image of URL number `index`.
    func bytes(of index: Int) -> [UInt8] {
        if let cached = cache.withLock({ $0[index] }) { return cached }
        let made = Self.make(index)
        cache.withLock { $0[index] = made }
        return made
    }

    /// Draws a gradient whose size and colours depend on `index`, then encodes it.
    private static func make(_ index: Int) -> [UInt8] {
        let width = 16 + index % 48
        let height = 16 + (index / 48) % 32
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 3
                pixels[offset] = UInt8(truncatingIfNeeded: x * 5 + index)
                pixels[offset + 1] = UInt8(truncatingIfNeeded: y * 7 + index / 256)
                pixels[offset + 2] = UInt8(truncatingIfNeeded: (x ^ y) + index * 3)
            }
        }
        let image = Image(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
        let encoding: ImageEncoding = index.isMultiple(of: 2) ? .png : .jpeg(quality: 90)
        do {
            return Array(try image.encoded(as: encoding))
        } catch {
            // An 8-bit RGB image within every limit always encodes; if it ever does not, the soak cannot run.
            fatalError("cannot encode soak image \(index): \(error)")
        }
    }
}
