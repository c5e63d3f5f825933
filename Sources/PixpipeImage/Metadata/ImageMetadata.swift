/// What a decoder read from the source besides the pixels.
public struct ImageMetadata: Sendable, Hashable {
    /// The container format the image was decoded from, if it was decoded.
    public var sourceFormat: ImageFormat?
    /// Bits per sample in the source (1, 2, 4, 8, 12 or 16).
    public var sourceBitDepth: Int?
    /// Whether the source was Adam7-interlaced (PNG) or progressive (JPEG).
    public var isInterlaced: Bool
    /// The EXIF orientation (JPEG APP1, PNG eXIf); `.up` when absent.
    public var orientation: Orientation
    /// The raw TIFF-structured EXIF block (starting at the byte-order mark), if present.
    public var exif: [UInt8]?
    /// The embedded ICC profile, if present.
    public var iccProfile: [UInt8]?
    /// The file gamma from a PNG `gAMA` chunk (for example 0.45455), reported, never applied.
    public var gamma: Double?
    /// Physical resolution in dots per inch, where the source states one.
    public var dotsPerInch: Resolution?
    /// Problems the decoder worked around in lenient mode (for example a truncated file).
    public var warnings: [DecodeWarning]

    /// Empty metadata: upright, no profile, no warnings.
    public init(
        sourceFormat: ImageFormat? = nil, sourceBitDepth: Int? = nil, isInterlaced: Bool = false,
        orientation: Orientation = .up, exif: [UInt8]? = nil, iccProfile: [UInt8]? = nil,
        gamma: Double? = nil, dotsPerInch: Resolution? = nil, warnings: [DecodeWarning] = []
    ) {
        self.sourceFormat = sourceFormat
        self.sourceBitDepth = sourceBitDepth
        self.isInterlaced = isInterlaced
        self.orientation = orientation
        self.exif = exif
        self.iccProfile = iccProfile
        self.gamma = gamma
        self.dotsPerInch = dotsPerInch
        self.warnings = warnings
    }

    /// A horizontal and vertical resolution.
    public struct Resolution: Sendable, Hashable, Codable {
        /// Horizontal dots per inch.
        public var x: Double
        /// Vertical dots per inch.
        public var y: Double

        /// A resolution.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }
}

/// A problem a decoder worked around instead of failing (lenient mode only).
public struct DecodeWarning: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it was.
    public enum Kind: String, Sendable, Hashable {
        /// The data ended early; missing rows are filled (gray for JPEG, zero for PNG).
        case truncated
        /// The data was damaged but decoding went on.
        case corrupt
    }

    /// What kind of problem it was.
    public var kind: Kind
    /// The codec library's own message.
    public var message: String

    /// A warning.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// `kind: message`.
    public var description: String { "\(kind.rawValue): \(message)" }
}
