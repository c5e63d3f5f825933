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
    /// The part of the stored pixels the file says to show (AVIF `clap`), cut before the orientation is
    /// applied; `nil` shows every pixel.
    public var cleanAperture: PixelRect?
    /// The raw TIFF-structured EXIF block (starting at the byte-order mark), if present.
    public var exif: [UInt8]?
    /// The embedded ICC profile, if present.
    public var iccProfile: [UInt8]?
    /// The XMP packet (XML, as stored), if present; encoders that can hold one write it back.
    public var xmp: [UInt8]?
    /// The colour code points of an AVIF `nclx` colour box, when the file has one; an ICC profile, when
    /// present too, is what colour conversion uses.
    public var cicp: ColorCICP?
    /// The file gamma from a PNG `gAMA` chunk (for example 0.45455); colour conversion reads it as the
    /// curve of an untagged image (see ``Image/converted(toColorSpace:options:)``).
    public var gamma: Double?
    /// Whether the file declares its pixels sRGB outright (a PNG `sRGB` chunk), which wins over `gamma` and
    /// `chromaticities`.
    public var declaresSRGB: Bool
    /// The white point and primaries of a PNG `cHRM` chunk, when present; with `gamma`, what colour conversion
    /// reads an untagged PNG as.
    public var chromaticities: Chromaticities?
    /// Physical resolution in dots per inch, where the source states one.
    public var dotsPerInch: Resolution?
    /// Problems the decoder worked around in lenient mode (for example a truncated file).
    public var warnings: [DecodeWarning]

    /// Empty metadata: upright, no profile, no warnings.
    public init(
        sourceFormat: ImageFormat? = nil, sourceBitDepth: Int? = nil, isInterlaced: Bool = false,
        orientation: Orientation = .up, exif: [UInt8]? = nil, iccProfile: [UInt8]? = nil,
        gamma: Double? = nil, dotsPerInch: Resolution? = nil, warnings: [DecodeWarning] = [],
        cleanAperture: PixelRect? = nil, cicp: ColorCICP? = nil, declaresSRGB: Bool = false,
        chromaticities: Chromaticities? = nil, xmp: [UInt8]? = nil
    ) {
        self.xmp = xmp
        self.sourceFormat = sourceFormat
        self.sourceBitDepth = sourceBitDepth
        self.isInterlaced = isInterlaced
        self.orientation = orientation
        self.exif = exif
        self.iccProfile = iccProfile
        self.gamma = gamma
        self.dotsPerInch = dotsPerInch
        self.warnings = warnings
        self.cleanAperture = cleanAperture
        self.cicp = cicp
        self.declaresSRGB = declaresSRGB
        self.chromaticities = chromaticities
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

/// A problem a decoder worked around instead of failing, named by a row of its codec's warning table.
///
/// Two kinds of problem: those that lose pixels or make them doubtful (``Kind/truncated`` and
/// ``Kind/corrupt``: strict decoding throws them, lenient decoding keeps what it could decode with the
/// warning) and ``Kind/benign`` ones (an anomaly around a whole image: both modes decode, and record it).
/// ``code`` is stable (`jpeg-extraneous-bytes`, `png-ancillary-crc`); the README's "Strictness" section
/// lists every code with its reason.
public struct DecodeWarning: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it was.
    public enum Kind: String, Sendable, Hashable {
        /// The data ended early; missing rows are filled (gray for JPEG, zero for PNG).
        case truncated
        /// The data was damaged but decoding went on.
        case corrupt
        /// An anomaly that changes no pixel (junk between segments, a bad ICC marker, data after the last
        /// row, a damaged ancillary chunk): the image is whole, in strict mode too.
        case benign
    }

    /// What kind of problem it was.
    public var kind: Kind
    /// The stable short code of the codec table's row (`jpeg-extraneous-bytes`), for scripts and the manifest.
    public var code: String
    /// The codec library's own message.
    public var message: String

    /// A warning of `kind`, named `code`, with the library's `message`.
    public init(kind: Kind, code: String, message: String) {
        self.kind = kind
        self.code = code
        self.message = message
    }

    /// A warning outside any codec table; its code is the kind's name (`truncated`, `corrupt`, `benign`).
    public init(kind: Kind, message: String) {
        self.init(kind: kind, code: kind.rawValue, message: message)
    }

    /// Whether the problem lost pixels or made them doubtful: what strict decoding refuses.
    public var losesPixels: Bool { kind != .benign }

    /// `kind: message`, or `kind code: message` when the code says more than the kind.
    public var description: String {
        code == kind.rawValue ? "\(kind.rawValue): \(message)" : "\(kind.rawValue) \(code): \(message)"
    }

    /// `code: message`: the form the download manifest stores.
    public var codeAndMessage: String { "\(code): \(message)" }
}
