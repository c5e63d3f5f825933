/// Turns one stored row (samples interleaved, native-endian 16-bit) into one row of the output format:
/// sub-byte gray widened, MinIsWhite inverted, palette looked up, CMYK converted, extra samples other
/// than alpha dropped, associated alpha un-premultiplied, 16 bits reduced to their high byte when the
/// output has 8.
struct TIFFSampleConverter {
    let layout: TIFFPageLayout

    /// Whether a stored row already is an output row: gray or RGB samples of the output's depth, as
    /// many as the output has channels, not inverted, with no associated alpha to undo.
    var isIdentity: Bool {
        guard case .samples(let color) = layout.path else { return false }
        switch color {
        case .rgb: break
        case .gray(let minIsWhite): if minIsWhite { return false }
        default: return false
        }
        return layout.bits == layout.output.bitsPerSample && layout.samplesPerPixel == layout.output.channels
            && !(layout.alphaIndex != nil && layout.associatedAlpha)
    }

    /// Converts the row at `source` into `destination`.
    func convert(_ source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer) {
        guard case .samples(let color) = layout.path else { return }
        let width = layout.width
        let outChannels = layout.output.channels
        switch color {
        case .palette(let palette):
            let out = destination.assumingMemoryBound(to: UInt8.self)
            let entries = palette.count / 3
            for x in 0..<width {
                let index = min(lowBitSample(source, x), entries - 1)
                for channel in 0..<3 { out[x * outChannels + channel] = palette[index * 3 + channel] }
            }
            if layout.alphaIndex != nil { for x in 0..<width { out[x * outChannels + 3] = 255 } }
        case .gray(let minIsWhite) where layout.bits < 8:
            let out = destination.assumingMemoryBound(to: UInt8.self)
            let maximum = (1 << layout.bits) - 1
            for x in 0..<width {
                let value = lowBitSample(source, x) * 255 / maximum
                out[x] = UInt8(minIsWhite ? 255 - value : value)
            }
        case .cmyk(let conversion):
            convertCMYK(source, into: destination, conversion: conversion)
        case .gray(let minIsWhite):
            copySamples(source, into: destination, colorChannels: 1, invert: minIsWhite)
        case .rgb:
            copySamples(source, into: destination, colorChannels: 3, invert: false)
        }
    }

    /// The `x`th sample of a row of 1, 2 or 4-bit samples (most significant bits first), or of 8 bits.
    private func lowBitSample(_ source: UnsafeRawPointer, _ x: Int) -> Int {
        let bytes = source.assumingMemoryBound(to: UInt8.self)
        let bits = layout.bits
        if bits == 8 { return Int(bytes[x]) }
        let bit = x * bits
        let shift = 8 - bits - bit % 8
        return Int(bytes[bit / 8] >> UInt8(shift)) & ((1 << bits) - 1)
    }

    /// Gray or RGB samples of 8 or 16 bits, with their alpha.
    private func copySamples(
        _ source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer, colorChannels: Int, invert: Bool
    ) {
        let spp = layout.samplesPerPixel
        let outChannels = layout.output.channels
        let alpha = layout.alphaIndex
        let unpremultiply = alpha != nil && layout.associatedAlpha
        if layout.bits == layout.output.bitsPerSample, !invert, !unpremultiply, spp == outChannels {
            // Stored as output: one copy.
            destination.copyMemory(from: source, byteCount: layout.width * layout.output.bytesPerPixel)
            return
        }
        if layout.bits == 8 {
            let from = source.assumingMemoryBound(to: UInt8.self)
            let out = destination.assumingMemoryBound(to: UInt8.self)
            for x in 0..<layout.width {
                let a = alpha.map { Int(from[x * spp + $0]) } ?? 255
                for channel in 0..<colorChannels {
                    var value = Int(from[x * spp + channel])
                    if invert { value = 255 - value }
                    if unpremultiply { value = a == 0 ? 0 : min(255, (value * 255 + a / 2) / a) }
                    out[x * outChannels + channel] = UInt8(value)
                }
                if alpha != nil { out[x * outChannels + colorChannels] = UInt8(a) }
            }
            return
        }
        let from = source.assumingMemoryBound(to: UInt16.self)
        let maximum = 65535
        if layout.output.bitsPerSample == 16 {
            let out = destination.assumingMemoryBound(to: UInt16.self)
            for x in 0..<layout.width {
                let a = alpha.map { Int(from[x * spp + $0]) } ?? maximum
                for channel in 0..<colorChannels {
                    var value = Int(from[x * spp + channel])
                    if invert { value = maximum - value }
                    if unpremultiply { value = a == 0 ? 0 : min(maximum, (value * maximum + a / 2) / a) }
                    out[x * outChannels + channel] = UInt16(value)
                }
                if alpha != nil { out[x * outChannels + colorChannels] = UInt16(a) }
            }
        } else {
            let out = destination.assumingMemoryBound(to: UInt8.self)
            for x in 0..<layout.width {
                let a = alpha.map { Int(from[x * spp + $0]) } ?? maximum
                for channel in 0..<colorChannels {
                    var value = Int(from[x * spp + channel])
                    if invert { value = maximum - value }
                    if unpremultiply { value = a == 0 ? 0 : min(maximum, (value * maximum + a / 2) / a) }
                    out[x * outChannels + channel] = UInt8(value >> 8)
                }
                if alpha != nil { out[x * outChannels + colorChannels] = UInt8(a >> 8) }
            }
        }
    }

    /// CMYK (8 bits, or 16 by their high byte) packed to four samples a pixel and converted to RGB.
    private func convertCMYK(
        _ source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer, conversion: JPEGCMYKConversion
    ) {
        let width = layout.width
        let spp = layout.samplesPerPixel
        var cmyk = [UInt8](repeating: 0, count: width * 4)
        var rgb = [UInt8](repeating: 0, count: width * 3)
        for x in 0..<width {
            for channel in 0..<4 { cmyk[x * 4 + channel] = sample8(source, x * spp + channel) }
        }
        cmyk.withUnsafeBytes { from in
            rgb.withUnsafeMutableBytes { to in conversion.convert(from, into: to, pixelCount: width, inverted: false) }
        }
        let out = destination.assumingMemoryBound(to: UInt8.self)
        let outChannels = layout.output.channels
        for x in 0..<width {
            for channel in 0..<3 { out[x * outChannels + channel] = rgb[x * 3 + channel] }
            if let alpha = layout.alphaIndex { out[x * outChannels + 3] = sample8(source, x * spp + alpha) }
        }
    }

    /// Sample `index` of the row at 8 bits.
    private func sample8(_ source: UnsafeRawPointer, _ index: Int) -> UInt8 {
        layout.bits == 8
            ? source.load(fromByteOffset: index, as: UInt8.self)
            : UInt8(source.load(fromByteOffset: index * 2, as: UInt16.self) >> 8)
    }
}
