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
        let source: Image
        let header: String
        let maxValue = image.pixelFormat.bitsPerSample == 16 ? 65535 : 255
        switch variant {
        case .pnm:
            let opaque = PixelLayout(channels: image.pixelFormat.layout.isColor ? 3 : 1) ?? .rgb
            source = image.converted(to: PixelFormat(layout: opaque, bitsPerSample: image.pixelFormat.bitsPerSample))
            header = "\(opaque == .gray ? "P5" : "P6")\n\(image.width) \(image.height)\n\(maxValue)\n"
        case .pam:
            source = image
            header =
                "P7\nWIDTH \(image.width)\nHEIGHT \(image.height)\nDEPTH \(image.pixelFormat.channels)\n"
                + "MAXVAL \(maxValue)\nTUPLTYPE \(tupleType(image.pixelFormat.layout))\nENDHDR\n"
        }
        var data = Data(header.utf8)
        data.reserveCapacity(header.utf8.count + source.pixels.count)
        if source.pixelFormat.bitsPerSample == 8 {
            data.append(contentsOf: source.pixels)
        } else {
            appendBigEndianSamples(of: source, to: &data)
        }
        return data
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
