import Foundation

extension ImageFormat {
    /// Netpbm PGM or PPM (`P5`/`P6`), written only: alpha composited over white.
    public static let ppm = ImageFormat(rawValue: "ppm")
    /// Netpbm PAM (`P7`), written only: every channel kept.
    public static let pam = ImageFormat(rawValue: "pam")
}

/// The netpbm formats, for piping raw pixels to other tools: an encoder only, so never sniffed.
struct NetpbmCodec: ImageCodec {
    /// Which netpbm family.
    let variant: NetpbmEncoder.Variant

    var format: ImageFormat { variant == .pam ? .pam : .ppm }
    var fileExtensions: [String] { variant == .pam ? ["pam"] : ["ppm", "pgm", "pnm"] }
    var mediaTypes: [String] { variant == .pam ? ["image/x-portable-arbitrarymap"] : ["image/x-portable-anymap"] }
    var canDecode: Bool { false }
    var canEncode: Bool { true }
    var writes16Bit: Bool { true }

    func matches(_ prefix: [UInt8]) -> Bool { false }

    func encode(_ image: Image, options: any ImageEncodeOptions) throws(ImageEncodingError) -> Data {
        _ = try self.options(options, as: NetpbmEncodeOptions.self)
        return NetpbmEncoder.encode(image, as: variant)
    }

    func standardEncoding(_ settings: StandardEncodeSettings) -> ImageEncoding? {
        ImageEncoding(NetpbmEncodeOptions(variant: variant))
    }

    func rowFormat(for decoded: PixelFormat, options: any ImageEncodeOptions) -> PixelFormat? {
        NetpbmEncoder.storedFormat(of: decoded, as: variant)
    }

    func rowWriter(_ header: RowStreamHeader, options: any ImageEncodeOptions, descriptor: Int32) throws
        -> any RowWriter
    {
        _ = try self.options(options, as: NetpbmEncodeOptions.self)
        return try NetpbmRowWriter(header, variant: variant, descriptor: descriptor)
    }
}

/// Netpbm settings: which family to write.
public struct NetpbmEncodeOptions: ImageEncodeOptions {
    /// PGM/PPM or PAM.
    public var variant: NetpbmEncoder.Variant

    /// ``ImageFormat/ppm`` or ``ImageFormat/pam``.
    public var format: ImageFormat { variant == .pam ? .pam : .ppm }

    /// Options for `variant`.
    public init(variant: NetpbmEncoder.Variant) {
        self.variant = variant
    }
}

extension ImageEncoding {
    /// PGM or PPM, by the image's layout; alpha composited over white.
    public static var ppm: ImageEncoding { ImageEncoding(NetpbmEncodeOptions(variant: .pnm)) }
    /// PAM, every channel kept.
    public static var pam: ImageEncoding { ImageEncoding(NetpbmEncodeOptions(variant: .pam)) }
}
