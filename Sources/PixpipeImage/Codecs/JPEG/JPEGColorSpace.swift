import CPixpipeImage

/// The colour space of the rows libjpeg produces when decoding or takes when encoding.
enum JPEGColorSpace {
    /// One 8-bit sample per pixel.
    case gray
    /// Three 8-bit samples per pixel: red, green, blue.
    case rgb
    /// Four 8-bit samples per pixel: cyan, magenta, yellow, black, as stored (Adobe files store them
    /// inverted; the writer adds an Adobe APP14 marker).
    case cmyk

    /// The shim's code for the space.
    var code: Int32 {
        switch self {
        case .gray: Int32(PXP_JPEG_SPACE_GRAY)
        case .rgb: Int32(PXP_JPEG_SPACE_RGB)
        case .cmyk: Int32(PXP_JPEG_SPACE_CMYK)
        }
    }
}
