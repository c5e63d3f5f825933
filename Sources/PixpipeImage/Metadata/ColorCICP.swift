/// Coding-independent code points (ITU-T H.273) that say what colour space pixels are in, as an AVIF `colr`
/// box of type `nclx` carries them in place of an ICC profile.
///
/// ```swift
/// if let cicp = image.metadata.cicp, cicp.colorPrimaries == 12 { print("Display P3 primaries") }
/// ```
public struct ColorCICP: Sendable, Hashable, Codable {
    /// Colour primaries: 1 BT.709 (sRGB's), 9 BT.2020, 12 SMPTE EG 432-1 (Display P3), 2 unspecified.
    public var colorPrimaries: Int
    /// Transfer characteristics: 13 sRGB, 1/6/14/15 BT.709, 16 PQ, 18 HLG, 2 unspecified.
    public var transferCharacteristics: Int
    /// Matrix coefficients of the YUV coding (0 identity/RGB, 1 BT.709, 6 BT.601...).
    public var matrixCoefficients: Int
    /// Whether the coded samples use the full range.
    public var fullRange: Bool

    /// Code points as stored.
    public init(colorPrimaries: Int, transferCharacteristics: Int, matrixCoefficients: Int, fullRange: Bool) {
        self.colorPrimaries = colorPrimaries
        self.transferCharacteristics = transferCharacteristics
        self.matrixCoefficients = matrixCoefficients
        self.fullRange = fullRange
    }

    /// The profile the decoded RGB pixels are in, when the code points name one Pixpipe can build: `nil` for
    /// sRGB (BT.709 primaries or unspecified, with the sRGB curve or unspecified) and for what it cannot
    /// build (HDR transfers such as PQ and HLG, unusual primaries), which is then left as it is.
    var colorProfile: ColorProfile? {
        let sRGBCurve = transferCharacteristics == 13 || transferCharacteristics == 2
        guard sRGBCurve else { return nil }
        switch colorPrimaries {
        case 12: return .displayP3
        default: return nil
        }
    }
}
