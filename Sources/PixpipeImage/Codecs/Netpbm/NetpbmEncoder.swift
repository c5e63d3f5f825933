import Foundation

/// Writes images as netpbm files, for piping raw pixels to other tools.
///
/// - ``Variant/pnm``: PGM (`P5`) for gray, PPM (`P6`) for colour; these cannot store alpha, so it is
///   composited over white first.
/// - ``Variant/pam``: PAM (`P7`) for every layout, alpha kept (`TUPLTYPE` `GRAYSCALE`, `GRAYSCALE_ALPHA`,
///   `RGB` or `RGB_ALPHA`).
///
/// 8-bit images are written with `MAXVAL` 255, 16-bit ones with `MAXVAL` 65535 and big-endian samples,
/// as the netpbm formats require. Encoding cannot fail.
///
/// ```swift
/// let ppm = NetpbmEncoder.encode(image, as: .pnm)   // "P6\n640 480\n255\n" + pixels
/// ```
public enum NetpbmEncoder {
    /// Which netpbm family to write.
    public enum Variant: Sendable, Hashable, CaseIterable {
        /// PGM or PPM, chosen by the layout; alpha is composited over white.
        case pnm
        /// PAM, which keeps every channel.
        case pam
    }

    /// The netpbm file for `image`.
    public static func encode(_ image: Image, as variant: Variant) -> Data {
        let source = image.converted(to: storedFormat(of: image.pixelFormat, as: variant))
        let header = header(width: image.width, height: image.height, format: source.pixelFormat, variant: variant)
        var data = Data(header.utf8)
        data.reserveCapacity(header.utf8.count + source.pixels.count)
        if source.pixelFormat.bitsPerSample == 8 {
            data.append(contentsOf: source.pixels)
        } else {
            appendBigEndianSamples(of: source, to: &data)
        }
        return data
    }

    /// The pixel format `variant` stores `format` in: PGM/PPM drop alpha, PAM keeps every channel.
    static func storedFormat(of format: PixelFormat, as variant: Variant) -> PixelFormat {
        guard variant == .pnm else { return format }
        let opaque: PixelLayout = format.layout.isColor ? .rgb : .gray
        return PixelFormat(layout: opaque, bitsPerSample: format.bitsPerSample)
    }

    /// The header of a file of `width` x `height` pixels in `format` (already ``storedFormat(of:as:)``).
    static func header(width: Int, height: Int, format: PixelFormat, variant: Variant) -> String {
        let maxValue = format.bitsPerSample == 16 ? 65535 : 255
        switch variant {
        case .pnm:
            return "\(format.layout == .gray ? "P5" : "P6")\n\(width) \(height)\n\(maxValue)\n"
        case .pam:
            return "P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH \(format.channels)\n"
                + "MAXVAL \(maxValue)\nTUPLTYPE \(tupleType(format.layout))\nENDHDR\n"
        }
    }

    /// The PAM tuple type naming `layout`'s channels.
    static func tupleType(_ layout: PixelLayout) -> String {
        switch layout {
        case .gray: "GRAYSCALE"
        case .grayAlpha: "GRAYSCALE_ALPHA"
        case .rgb: "RGB"
        case .rgba: "RGB_ALPHA"
        }
    }

    /// Appends the 16-bit samples (native order in memory) most significant byte first.
    private static func appendBigEndianSamples(of image: Image, to data: inout Data) {
        var bytes = [UInt8](repeating: 0, count: image.pixels.count)
        image.withUnsafeBytes { raw in
            for (index, sample) in raw.bindMemory(to: UInt16.self).enumerated() {
                bytes[2 * index] = UInt8(sample >> 8)
                bytes[2 * index + 1] = UInt8(sample & 0xFF)
            }
        }
        data.append(contentsOf: bytes)
    }
}
