import CPixpipeTIFF
import Foundation

/// Encodes images as TIFF pages through libtiff: 8 or 16 bits, gray, gray+alpha, RGB or RGBA (alpha
/// unassociated, ExtraSamples 2), strips of about 64 KiB, Deflate or LZW with the horizontal predictor,
/// the ICC profile, XMP, resolution and Orientation tags. Several images give several pages (PageNumber
/// set), each of its own size.
enum TIFFEncoder {
    /// TIFF bytes holding `images` as pages, in order.
    static func encode(_ images: [Image], options: TIFFEncodeOptions) throws(ImageEncodingError) -> Data {
        guard !images.isEmpty else { throw .invalidOption("a TIFF needs at least one page") }
        for image in images {
            guard UInt32(exactly: image.width) != nil, UInt32(exactly: image.height) != nil else {
                throw .unsupportedPixelFormat(image.pixelFormat, format: .tiff)
            }
        }
        // Classic TIFF offsets are 32 bits: past 4 GiB of pixels (compression could still help, but is not
        // counted on), BigTIFF.
        let totalBytes = images.reduce(0) { $0 + $1.pixels.count }
        guard let writer = pxp_tiff_open_writer(totalBytes > 0xF000_0000 ? 1 : 0) else {
            throw .libraryFailure(
                format: .tiff, reason: pxp_tiff_load_error().map { String(cString: $0) } ?? "no memory")
        }
        defer { pxp_tiff_close(writer) }
        guard pxp_tiff_is_open(writer) != 0 else { throw failure(writer) }
        for (index, image) in images.enumerated() {
            try write(image, page: index, of: images.count, to: writer, options: options)
        }
        var data: UnsafePointer<UInt8>?
        var size = 0
        guard pxp_tiff_finish(writer, &data, &size) != 0, let data else { throw failure(writer) }
        return Data(bytes: data, count: size)
    }

    private static func write(
        _ image: Image, page: Int, of count: Int, to writer: OpaquePointer, options: TIFFEncodeOptions
    ) throws(ImageEncodingError) {
        let compression: UInt16 =
            switch options.compression {
            case .deflate: 8
            case .lzw: 5
            case .none: 1
            }
        let metadata = image.metadata
        let icc = options.includesICCProfile ? metadata.iccProfile ?? [] : []
        let xmp = options.includesXMP ? metadata.xmp ?? [] : []
        var settings = pxp_tiff_write_page()
        settings.width = UInt32(image.width)
        settings.height = UInt32(image.height)
        settings.bits_per_sample = UInt16(image.pixelFormat.bitsPerSample)
        settings.channels = UInt16(image.pixelFormat.channels)
        settings.has_alpha = image.pixelFormat.layout.hasAlpha ? 1 : 0
        settings.compression = compression
        settings.predictor = options.usesPredictor && compression != 1 ? 2 : 1
        settings.orientation = options.writesOrientation ? UInt16(metadata.orientation.rawValue) : 1
        settings.dots_per_inch_x = Float(metadata.dotsPerInch?.x ?? 0)
        settings.dots_per_inch_y = Float(metadata.dotsPerInch?.y ?? 0)
        settings.page_index = UInt16(clamping: page)
        settings.page_count = UInt16(clamping: count)
        let ok = icc.withUnsafeBufferPointer { iccBytes in
            xmp.withUnsafeBufferPointer { xmpBytes in
                settings.icc = icc.isEmpty ? nil : iccBytes.baseAddress
                settings.icc_size = UInt32(icc.count)
                settings.xmp = xmp.isEmpty ? nil : xmpBytes.baseAddress
                settings.xmp_size = UInt32(xmp.count)
                return image.withUnsafeBytes { pixels in
                    pxp_tiff_write(writer, &settings, pixels.baseAddress?.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
        guard ok != 0 else { throw failure(writer) }
    }

    private static func failure(_ writer: OpaquePointer) -> ImageEncodingError {
        .libraryFailure(format: .tiff, reason: pxp_tiff_error(writer).map { String(cString: $0) } ?? "libtiff failed")
    }
}
