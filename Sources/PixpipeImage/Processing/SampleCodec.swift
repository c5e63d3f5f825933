import CPixpipeImage

/// Moves samples between an image's stored bytes and the resampler's working floats.
///
/// Working values are 0...1, colour premultiplied by alpha (so a transparent pixel adds no colour to
/// its neighbours), and in linear light when asked. Alpha itself is never linearized.
struct SampleCodec: Sendable {
    /// Channels per pixel.
    let channels: Int
    /// Bytes per stored pixel.
    let bytesPerPixel: Int
    /// Whether samples are 16 bits.
    let isSixteenBit: Bool
    /// Whether the last channel is alpha.
    let hasAlpha: Bool
    /// Whether colour is filtered in linear light.
    let linearLight: Bool

    /// A codec for `format`.
    init(format: PixelFormat, linearLight: Bool) {
        channels = format.channels
        bytesPerPixel = format.bytesPerPixel
        isSixteenBit = format.bitsPerSample == 16
        hasAlpha = format.layout.hasAlpha
        self.linearLight = linearLight
    }

    /// Converts `width` stored pixels at `source` into working floats at `destination`.
    func decodeRow(_ source: UnsafeRawPointer, width: Int, into destination: UnsafeMutablePointer<Float>) {
        let sampleCount = width * channels
        if isSixteenBit {
            let samples = source.assumingMemoryBound(to: UInt16.self)
            if linearLight {
                SRGBTransfer.linearFrom16.withUnsafeBufferPointer { table in
                    for index in 0..<sampleCount { destination[index] = table[Int(samples[index])] }
                }
            } else {
                let scale = Float(1) / 65535
                for index in 0..<sampleCount { destination[index] = Float(samples[index]) * scale }
            }
            // Alpha was looked up like a colour sample; store it plain.
            if hasAlpha && linearLight {
                let scale = Float(1) / 65535
                for pixel in 0..<width {
                    let alpha = pixel * channels + channels - 1
                    destination[alpha] = Float(samples[alpha]) * scale
                }
            }
        } else {
            let samples = source.assumingMemoryBound(to: UInt8.self)
            if linearLight {
                SRGBTransfer.linearFrom8.withUnsafeBufferPointer { values in
                    for index in 0..<sampleCount { destination[index] = values[Int(samples[index])] }
                }
            } else {
                // Arithmetic rather than a table: this loop vectorizes, a table lookup cannot (in C, for
                // AVX2 when the CPU has it: eight samples per instruction instead of four).
                pxp_resample_widen_u8(samples, sampleCount, Float(1) / 255, destination)
            }
            if hasAlpha && linearLight {
                SRGBTransfer.normalizedFrom8.withUnsafeBufferPointer { values in
                    for pixel in 0..<width {
                        let alpha = pixel * channels + channels - 1
                        destination[alpha] = values[Int(samples[alpha])]
                    }
                }
            }
        }
        if hasAlpha { premultiply(destination, width: width) }
    }

    /// Multiplies each colour sample by its pixel's alpha.
    private func premultiply(_ values: UnsafeMutablePointer<Float>, width: Int) {
        for pixel in 0..<width {
            let base = values + pixel * channels
            let alpha = base[channels - 1]
            for channel in 0..<(channels - 1) { base[channel] *= alpha }
        }
    }

    /// Converts `width` working pixels at `source` into stored bytes at `destination`: unpremultiplies,
    /// clamps to 0...1 (filters with negative lobes overshoot), re-encodes sRGB, and rounds.
    func encodeRow(_ source: UnsafePointer<Float>, width: Int, into destination: UnsafeMutableRawPointer) {
        if !isSixteenBit && !hasAlpha && !linearLight {
            Self.encodePlain8(source, count: width * channels, into: destination)
            return
        }
        let maximum: Float = isSixteenBit ? 65535 : 255
        let colourChannels = hasAlpha ? channels - 1 : channels
        SRGBTransfer.encodedFromLinear.withUnsafeBufferPointer { encodeTable in
            for pixel in 0..<width {
                let base = source + pixel * channels
                var unpremultiply: Float = 1
                if hasAlpha {
                    let alpha = min(max(base[channels - 1], 0), 1)
                    store(alpha * maximum, at: pixel * channels + channels - 1, in: destination)
                    // A pixel whose alpha rounds to zero has no colour worth keeping: transparent black.
                    unpremultiply = alpha * maximum < 0.5 ? 0 : 1 / alpha
                }
                for channel in 0..<colourChannels {
                    var value = min(max(base[channel] * unpremultiply, 0), 1)
                    if linearLight {
                        if isSixteenBit {
                            value = Float(SRGBTransfer.toEncoded(Double(value)))
                        } else {
                            value = encodeTable[Int(value * Float(SRGBTransfer.encodingSteps) + 0.5)]
                        }
                    }
                    store(value * maximum, at: pixel * channels + channel, in: destination)
                }
            }
        }
    }

    /// The common case of ``encodeRow(_:width:into:)``: 8-bit samples, no alpha, no linear light, with the
    /// same clamping and rounding as the general loop but no per-sample branches on the format and no
    /// checked float-to-integer conversion (the general loop took about 25 instructions a sample).
    ///
    /// `UInt8(x)` truncates; for x in 0.5...255.5 that is floor(x), computed here in floats, exactly:
    /// adding 2^23 rounds x to the nearest integer (the float's last bit is then worth 1), one is taken
    /// off when that rounded up, and the integer is then the low byte of `floor + 2^23`'s bit pattern.
    private static func encodePlain8(
        _ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutableRawPointer
    ) {
        let bytes = destination.assumingMemoryBound(to: UInt8.self)
        let magic: Float = 8_388_608
        for index in 0..<count {
            let value = min(max(source[index], 0), 1) * 255 + 0.5
            let nearest = (value + magic) - magic
            let floor = nearest > value ? nearest - 1 : nearest
            bytes[index] = UInt8(truncatingIfNeeded: (floor + magic).bitPattern)
        }
    }

    /// Rounds `scaled` (already within 0...maximum) into sample `index` of the stored row.
    @inline(__always)
    private func store(_ scaled: Float, at index: Int, in destination: UnsafeMutableRawPointer) {
        if isSixteenBit {
            destination.storeBytes(of: UInt16(scaled + 0.5), toByteOffset: index * 2, as: UInt16.self)
        } else {
            destination.storeBytes(of: UInt8(scaled + 0.5), toByteOffset: index, as: UInt8.self)
        }
    }
}
