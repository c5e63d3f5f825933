import Foundation
import Pixpipe

/// Small images built in memory, encoded by the library, as inputs for the executable.
enum TestImages {
    /// A `width` x `height` 8-bit RGBA image: red grows left to right, green top to bottom, blue constant,
    /// and alpha 255 except the top-left pixel, which is fully transparent.
    static func gradient(width: Int = 16, height: Int = 8, layout: PixelLayout = .rgba) -> Image {
        var image = Image(width: width, height: height, pixelFormat: PixelFormat(layout: layout))
        for y in 0..<height {
            for x in 0..<width {
                let colour = [x * 255 / max(1, width - 1), y * 255 / max(1, height - 1), 100]
                for channel in 0..<(layout.isColor ? 3 : 1) { image[x: x, y: y, channel: channel] = colour[channel] }
                if layout.hasAlpha { image[x: x, y: y, channel: layout.channels - 1] = x == 0 && y == 0 ? 0 : 255 }
            }
        }
        return image
    }

    /// `image` as PNG bytes.
    static func png(_ image: Image = gradient()) throws -> Data {
        try image.encoded(as: .png)
    }
}
