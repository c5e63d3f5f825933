import Foundation

@testable import PixpipeImage

/// Small images built in memory for the processing tests.
enum SyntheticImages {
    /// Every pixel of every channel set to `value`, except alpha, set to `alpha` when the format has it.
    static func constant(width: Int, height: Int, format: PixelFormat, value: Int, alpha: Int) -> Image {
        var image = Image(width: width, height: height, pixelFormat: format)
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<format.channels {
                    let isAlpha = format.layout.hasAlpha && channel == format.channels - 1
                    image[x: x, y: y, channel: channel] = isAlpha ? alpha : value
                }
            }
        }
        return image
    }

    /// Smooth colour waves (no edges), the kind of content resamplers are compared on.
    static func smooth(width: Int, height: Int, format: PixelFormat) -> Image {
        var image = Image(width: width, height: height, pixelFormat: format)
        let maximum = format.bitsPerSample == 16 ? 65535.0 : 255.0
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x) / Double(width)
                let v = Double(y) / Double(height)
                for channel in 0..<format.channels {
                    let phase = Double(channel) * 1.7
                    var level = 0.5 + 0.4 * sin(2 * .pi * (1.5 * u + 0.8 * v) + phase) * cos(2 * .pi * (v - 0.3 * u))
                    if format.layout.hasAlpha && channel == format.channels - 1 { level = 0.6 + 0.4 * u }
                    image[x: x, y: y, channel: channel] = Int((level * maximum).rounded())
                }
            }
        }
        return image
    }

    /// A one-pixel black and white checkerboard.
    static func checkerboard(size: Int) -> Image {
        Image(
            width: size, height: size, pixelFormat: .gray8,
            pixels: (0..<(size * size)).map { ($0 / size + $0 % size) % 2 == 0 ? 0 : 255 })
    }
}
