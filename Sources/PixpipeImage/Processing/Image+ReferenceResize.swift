import Foundation

extension Image {
    /// A slow, simple Lanczos-3 resize in `Double`, the yardstick the fast resizer is measured against.
    ///
    /// Written independently of ``resized(width:height:filter:options:)``: no lookup tables, no
    /// fixed layouts, no threads. Alpha is premultiplied as in the fast path; no linear light. Meant for
    /// tests and quality checks, not for production use.
    package func referenceResized(width outputWidth: Int, height outputHeight: Int) -> Image {
        precondition(outputWidth > 0 && outputHeight > 0, "an image has at least one pixel")
        let channels = pixelFormat.channels
        let maximum = pixelFormat.bitsPerSample == 16 ? 65535.0 : 255.0
        let hasAlpha = pixelFormat.layout.hasAlpha
        var values = samples16.map { Double($0) / 65535 }
        if pixelFormat.bitsPerSample == 8 { values = pixels.map { Double($0) / 255 } }
        if hasAlpha {
            for pixel in 0..<pixelCount {
                for channel in 0..<(channels - 1) {
                    values[pixel * channels + channel] *= values[pixel * channels + channels - 1]
                }
            }
        }
        // Horizontal pass: height rows of outputWidth pixels.
        let columnWeights = Self.referenceWeights(from: width, to: outputWidth)
        var wide = [Double](repeating: 0, count: height * outputWidth * channels)
        for y in 0..<height {
            for x in 0..<outputWidth {
                for (source, weight) in columnWeights[x] {
                    for channel in 0..<channels {
                        wide[(y * outputWidth + x) * channels + channel] +=
                            weight * values[(y * width + source) * channels + channel]
                    }
                }
            }
        }
        // Vertical pass.
        let rowWeights = Self.referenceWeights(from: height, to: outputHeight)
        var result = Image(width: outputWidth, height: outputHeight, pixelFormat: pixelFormat, metadata: metadata)
        for y in 0..<outputHeight {
            for x in 0..<outputWidth {
                var pixel = [Double](repeating: 0, count: channels)
                for (source, weight) in rowWeights[y] {
                    for channel in 0..<channels {
                        pixel[channel] += weight * wide[(source * outputWidth + x) * channels + channel]
                    }
                }
                var colourScale = 1.0
                if hasAlpha {
                    let alpha = min(max(pixel[channels - 1], 0), 1)
                    pixel[channels - 1] = alpha
                    colourScale = (alpha * maximum).rounded() == 0 ? 0 : 1 / alpha
                }
                for channel in 0..<channels {
                    let scaled = channel == channels - 1 && hasAlpha ? pixel[channel] : pixel[channel] * colourScale
                    result[x: x, y: y, channel: channel] = Int((min(max(scaled, 0), 1) * maximum).rounded())
                }
            }
        }
        return result
    }

    /// For each output position, the (source index, weight) pairs of a Lanczos-3 kernel widened by the
    /// downscale factor, normalized to sum to 1.
    private static func referenceWeights(from inputSize: Int, to outputSize: Int) -> [[(Int, Double)]] {
        let scale = Double(inputSize) / Double(outputSize)
        let widen = max(1, scale)
        func lanczos3(_ x: Double) -> Double {
            if x == 0 { return 1 }
            if abs(x) >= 3 { return 0 }
            let angle = Double.pi * x
            return 3 * sin(angle) * sin(angle / 3) / (angle * angle)
        }
        return (0..<outputSize).map { output in
            let centre = (Double(output) + 0.5) * scale
            let reach = 3 * widen
            let first = max(0, Int(floor(centre - reach)))
            let last = min(inputSize - 1, Int(ceil(centre + reach)))
            let pairs = (first...last).map { source in (source, lanczos3((Double(source) + 0.5 - centre) / widen)) }
            let total = pairs.reduce(0) { $0 + $1.1 }
            return pairs.map { ($0.0, $0.1 / total) }
        }
    }
}
