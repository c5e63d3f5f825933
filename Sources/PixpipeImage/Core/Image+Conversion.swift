extension Image {
    /// The image in another pixel format.
    ///
    /// - 16 to 8 bits keeps each sample's high byte; 8 to 16 bits scales by 257 (exact round trip).
    /// - Gray to colour replicates the gray sample; colour to gray uses Rec. 601 luma.
    /// - Removing alpha composites over `background` (a gray level from 0 to 1, white by default);
    ///   adding alpha makes every pixel opaque.
    public func converted(to target: PixelFormat, background: Double = 1) -> Image {
        if target == pixelFormat { return self }
        let source = pixelFormat
        let maxIn = source.bitsPerSample == 16 ? 65535 : 255
        let maxOut = target.bitsPerSample == 16 ? 65535 : 255
        let inChannels = source.channels
        let outChannels = target.channels
        let backgroundLevel = Int((max(0, min(1, background)) * Double(maxIn)).rounded())
        let input = samplesAsInts()
        var output = [Int](repeating: 0, count: pixelCount * outChannels)
        var colour = [0, 0, 0]
        for pixel in 0..<pixelCount {
            let base = pixel * inChannels
            if source.layout.isColor {
                colour = [input[base], input[base + 1], input[base + 2]]
            } else {
                colour = [input[base], input[base], input[base]]
            }
            var alpha = source.layout.hasAlpha ? input[base + inChannels - 1] : maxIn
            if !target.layout.hasAlpha && alpha != maxIn {
                for index in 0..<3 {
                    colour[index] = (colour[index] * alpha + backgroundLevel * (maxIn - alpha) + maxIn / 2) / maxIn
                }
                alpha = maxIn
            }
            let out = pixel * outChannels
            if target.layout.isColor {
                for index in 0..<3 { output[out + index] = Self.rescale(colour[index], from: maxIn, to: maxOut) }
            } else {
                let gray =
                    source.layout.isColor
                    ? (colour[0] * 299 + colour[1] * 587 + colour[2] * 114 + 500) / 1000 : colour[0]
                output[out] = Self.rescale(gray, from: maxIn, to: maxOut)
            }
            if target.layout.hasAlpha { output[out + outChannels - 1] = Self.rescale(alpha, from: maxIn, to: maxOut) }
        }
        var result = Image(width: width, height: height, pixelFormat: target, metadata: metadata)
        result.storeSamples(output)
        return result
    }

    private static func rescale(_ value: Int, from maxIn: Int, to maxOut: Int) -> Int {
        if maxIn == maxOut { return value }
        return maxOut > maxIn ? value * 257 : value >> 8
    }

    private func samplesAsInts() -> [Int] {
        pixelFormat.bitsPerSample == 8 ? pixels.map(Int.init) : samples16.map(Int.init)
    }

    private mutating func storeSamples(_ samples: [Int]) {
        if pixelFormat.bitsPerSample == 8 {
            withUnsafeMutableBytes { raw in
                for (index, sample) in samples.enumerated() { raw[index] = UInt8(sample) }
            }
        } else {
            withUnsafeMutableBytes { raw in
                let words = raw.bindMemory(to: UInt16.self)
                for (index, sample) in samples.enumerated() { words[index] = UInt16(sample) }
            }
        }
    }
}
