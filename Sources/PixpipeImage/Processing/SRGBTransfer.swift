import Foundation

/// The sRGB transfer function and the lookup tables that make it cheap per sample.
enum SRGBTransfer {
    /// Linear light (0...1) from an sRGB-encoded value (0...1).
    static func toLinear(_ encoded: Double) -> Double {
        encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }

    /// The sRGB-encoded value (0...1) of linear light (0...1).
    static func toEncoded(_ linear: Double) -> Double {
        linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    /// Linear light of each 8-bit sample value.
    static let linearFrom8: [Float] = (0...255).map { Float(toLinear(Double($0) / 255)) }

    /// Linear light of each 16-bit sample value (256 KiB, built on first use).
    static let linearFrom16: [Float] = (0...65535).map { Float(toLinear(Double($0) / 65535)) }

    /// Each 8-bit sample value scaled to 0...1.
    static let normalizedFrom8: [Float] = (0...255).map { Float($0) / 255 }

    /// Entries in `encodedFromLinear`: linear light is quantized to 16 bits before encoding.
    static let encodingSteps = 65535

    /// The sRGB-encoded value (0...1) of linear light `index / encodingSteps`.
    ///
    /// 16-bit steps keep the error under 0.06 of an 8-bit level even in the steep dark end, so an
    /// 8-bit value decoded and encoded again comes back unchanged.
    static let encodedFromLinear: [Float] = (0...encodingSteps).map {
        Float(toEncoded(Double($0) / Double(encodingSteps)))
    }
}
