import CPixpipeTIFF

/// How one page's stored samples become an ``Image``: which samples are colour and alpha, and the path.
///
/// Read sample by sample (strips and tiles, contiguous or planar, any compression libtiff reads): gray
/// (MinIsBlack, MinIsWhite) at 1, 2, 4, 8 and 16 bits, RGB at 8 and 16, palette at 1 to 8, CMYK (InkSet 1)
/// at 8 and 16 through a profile, and YCbCr when JPEG-compressed (libjpeg converts it to RGB). Every other
/// photometric libtiff's RGBA interface understands (YCbCr of other compressions, old-style JPEG, CIE
/// Lab, LogLuv) goes through that interface, which gives 8 bits; floating-point and signed samples, and
/// layouts neither path reads, are refused with ``ImageDecodingError/unsupportedFeature(format:feature:)``.
///
/// FillOrder 2 (bits of each byte stored least significant first) is honoured for 1-, 2- and 4-bit samples,
/// as libtiff reads them, and ignored for 8- and 16-bit samples, whose bytes libtiff would hand back
/// bit-reversed: the TIFF 6.0 specification reserves the tag for bilevel data, and writers that set it on
/// whole-byte samples (raw2tiff does) store the samples as they are, which is the picture they hold.
struct TIFFPageLayout {
    /// What the colour samples are.
    enum Color {
        /// One gray sample; `minIsWhite` for PhotometricInterpretation 0.
        case gray(minIsWhite: Bool)
        /// Red, green, blue (also JPEG YCbCr that libjpeg converts).
        case rgb
        /// An index into `palette`, 2^bits entries of (r, g, b) at 8 bits.
        case palette([UInt8])
        /// Cyan, magenta, yellow, black, converted to sRGB through `conversion`.
        case cmyk(JPEGCMYKConversion)
    }

    /// The decode path.
    enum Path {
        /// Strips or tiles read and converted here.
        case samples(Color)
        /// libtiff's RGBA interface, for the photometrics read only there.
        case rgba
    }

    let width: Int
    let height: Int
    /// Stored bits per sample.
    let bits: Int
    /// Stored samples per pixel, every plane.
    let samplesPerPixel: Int
    /// Colour samples per pixel (1, 3 or 4).
    let colorChannels: Int
    /// The index of the alpha sample, when the first extra sample is alpha.
    let alphaIndex: Int?
    /// Whether the alpha is associated (premultiplied in the file; un-premultiplied here).
    let associatedAlpha: Bool
    /// PlanarConfiguration 2.
    let isPlanar: Bool
    let path: Path
    /// The decoded pixel format.
    let output: PixelFormat
    /// Benign warnings the layout brings (a CMYK profile not used).
    var warnings: [DecodeWarning] = []

    /// Bytes of one stored row with every sample interleaved (the planes joined).
    var storedRowBytes: Int { bits >= 8 ? width * samplesPerPixel * bits / 8 : (width * bits + 7) / 8 }

    /// The layout of `handle`'s current page; `keeps16Bit` keeps 16-bit gray and RGB samples.
    /// Turns on libjpeg's RGB output for JPEG YCbCr pages.
    init(handle: TIFFHandle, keeps16Bit: Bool) throws(ImageDecodingError) {
        var page = handle.page
        width = Int(page.width)
        height = Int(page.height)
        guard width > 0, height > 0 else { throw .corrupt(format: .tiff, reason: "the page has no pixels") }
        let sampleFormat = Int(page.sample_format)
        bits = Int(page.bits_per_sample)
        let photometric = Int(page.photometric)
        let extra = Int(page.extra_count)
        let firstExtra = Int(page.first_extra)
        isPlanar = page.planar == 2
        // LogLuv (32844, 32845) stores its own encoding, which libtiff's RGBA interface converts.
        guard sampleFormat == 1 || sampleFormat == 4 || photometric == 32844 || photometric == 32845 else {
            let name = sampleFormat == 3 ? "floating-point" : sampleFormat == 2 ? "signed integer" : "complex"
            throw .unsupportedFeature(
                format: .tiff, feature: "\(name) samples (SampleFormat \(sampleFormat)) at \(bits) bits")
        }
        var color: Color?
        var channels = 1
        switch photometric {
        case 0...1 where [1, 2, 4, 8, 16].contains(bits):
            color = .gray(minIsWhite: photometric == 0)
        case 2 where bits == 8 || bits == 16:
            color = .rgb
            channels = 3
        case 3 where [1, 2, 4, 8].contains(bits) && page.red != nil:
            color = .palette(Self.palette(page, bits: bits))
        case 5 where (bits == 8 || bits == 16) && page.ink_set != 2:
            if Int(page.samples_per_pixel) - extra == 4 {
                let made = JPEGCMYKConversion.make(
                    iccProfile: TIFFMetadata.bytes(page.icc, page.icc_size), inverted: false)
                color = .cmyk(made.conversion)
                if let warning = made.warning { warnings.append(warning) }
                channels = 4
            }
        case 6 where page.compression == 7 && bits == 8:
            // JPEG-compressed YCbCr: libjpeg converts to RGB and upsamples.
            handle.convertJPEGToRGB()
            page = handle.page
            color = .rgb
            channels = 3
        default: break
        }
        let spp = Int(page.samples_per_pixel)
        let hasAlpha = extra > 0 && (firstExtra == 1 || firstExtra == 2)
        if let color, spp >= channels, bits >= 8 || spp == 1, !(isPlanar && bits < 8) {
            path = .samples(color)
            samplesPerPixel = spp
            colorChannels = channels
            alphaIndex = hasAlpha && spp > channels ? channels : nil
            associatedAlpha = firstExtra == 1
            let deep =
                bits == 16 && keeps16Bit
                && { if case .gray = color { true } else if case .rgb = color { true } else { false } }()
            let outChannels =
                (channels == 1 && { if case .gray = color { true } else { false } }() ? 1 : 3)
                + (alphaIndex == nil ? 0 : 1)
            output = PixelFormat(layout: PixelLayout(channels: outChannels) ?? .rgb, bitsPerSample: deep ? 16 : 8)
            return
        }
        var message = [CChar](repeating: 0, count: 1024)
        guard pxp_tiff_rgba_ok(handle.handle, &message) != 0 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .unsupportedFeature(
                format: .tiff, feature: "photometric \(photometric), \(spp) samples of \(bits) bits: \(reason)")
        }
        path = .rgba
        samplesPerPixel = 4
        colorChannels = 3
        alphaIndex = hasAlpha ? 3 : nil
        associatedAlpha = true
        output = hasAlpha ? .rgba8 : .rgb8
    }

    /// The colormap at 8 bits: libtiff's 16-bit values by their high byte, or as they are when every value
    /// is under 256 (old writers stored 8-bit colormaps; libtiff's RGBA interface reads them the same way).
    private static func palette(_ page: pxp_tiff_page, bits: Int) -> [UInt8] {
        let count = 1 << bits
        guard let red = page.red, let green = page.green, let blue = page.blue else { return [] }
        let maps = [red, green, blue]
        let eightBit = maps.allSatisfy { map in (0..<count).allSatisfy { map[$0] < 256 } }
        var palette = [UInt8](repeating: 0, count: count * 3)
        for index in 0..<count {
            for channel in 0..<3 {
                let value = maps[channel][index]
                palette[index * 3 + channel] = UInt8(truncatingIfNeeded: eightBit ? value : value >> 8)
            }
        }
        return palette
    }
}
