import CPixpipeHEIF
import Foundation

/// Writes HEIC files with libheif's x265 encoder.
///
/// The pixels are handed to libheif as interleaved RGB(A), which it converts to YCbCr 4:2:0 (4:4:4 when
/// lossless); gray images are written as RGB. The ICC profile (`colr` 'prof'), EXIF and XMP items are
/// written when the options ask for them, and ``ImageMetadata/orientation`` as `irot`/`imir`, so the
/// stored pixels are shown turned as the orientation says.
enum HEIFEncoder {
    /// A thumbnail item to write beside the primary image (tests make phone-like files with it): `image`
    /// scaled by libheif into a `side` square, with its own irot/imir from `orientation` (`nil`: none).
    struct Thumbnail {
        /// The picture the thumbnail is made from (usually the primary image itself).
        var image: Image
        /// The square libheif scales it into.
        var side: Int
        /// The orientation written for the thumbnail item, or `nil` for none.
        var orientation: Orientation?
    }

    /// Encodes one image, with a thumbnail item when `thumbnail` is given.
    static func encode(
        _ image: Image, options: HEIFEncodeOptions, thumbnail: Thumbnail? = nil
    ) throws(ImageEncodingError) -> Data {
        guard (1...100).contains(options.quality) else {
            throw .invalidOption("HEIF quality \(options.quality) is outside 1...100")
        }
        let depth = options.bitDepth ?? (image.pixelFormat.bitsPerSample > 8 ? 10 : 8)
        guard depth == 8 || depth == 10 else { throw .invalidOption("HEIF bit depth \(depth) is not 8 or 10") }
        // Lossless codes G, B and R as they are (an identity matrix), so that the samples come back exactly;
        // libheif's RGB input would be converted to YCbCr first, which rounds.
        let picture = try options.lossless ? identityImage(image, depth: depth) : heifImage(image, depth: depth)
        defer { pxp_heif_image_release(picture) }
        if options.includesMetadata, let icc = image.metadata.iccProfile, !icc.isEmpty {
            try check(pxp_heif_image_set_raw_color_profile(picture, "prof", icc, icc.count))
        }
        guard let context = pxp_heif_context_alloc() else { throw failure("libheif could not create a context") }
        defer { pxp_heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(pxp_heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder))
        guard let encoder else { throw failure("libheif has no HEVC encoder") }
        defer { pxp_heif_encoder_release(encoder) }
        if options.lossless {
            try check(pxp_heif_encoder_set_lossless(encoder, 1))
            try check(pxp_heif_encoder_set_parameter(encoder, "chroma", "444"))
        } else {
            try check(pxp_heif_encoder_set_lossy_quality(encoder, Int32(options.quality)))
        }
        var handle: OpaquePointer?
        try check(
            pxp_heif_context_encode_image(
                context, picture, encoder, Int32(image.metadata.orientation.rawValue), options.lossless ? 1 : 0,
                &handle))
        guard let handle else { throw failure("libheif gave no image handle") }
        defer { pxp_heif_image_handle_release(handle) }
        if let thumbnail {
            let small = try heifImage(thumbnail.image, depth: depth)
            defer { pxp_heif_image_release(small) }
            var thumbnailHandle: OpaquePointer?
            try check(
                pxp_heif_context_encode_thumbnail(
                    context, small, handle, encoder, Int32(thumbnail.orientation?.rawValue ?? 0),
                    Int32(thumbnail.side), &thumbnailHandle))
            if let thumbnailHandle { pxp_heif_image_handle_release(thumbnailHandle) }
        }
        if options.includesMetadata {
            if let exif = image.metadata.exif, !exif.isEmpty {
                try check(pxp_heif_context_add_exif_metadata(context, handle, exif, Int32(exif.count)))
            }
            if let xmp = image.metadata.xmp, !xmp.isEmpty {
                try check(pxp_heif_context_add_XMP_metadata(context, handle, xmp, Int32(xmp.count)))
            }
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        try check(pxp_heif_context_write_to_memory(context, &output, &size))
        guard let output else { throw failure("libheif wrote nothing") }
        defer { pxp_heif_free(output) }
        return Data(bytes: output, count: size)
    }

    /// `image` as a libheif image of 4:4:4 planes holding G, B and R (and alpha) as they are, at `depth` bits,
    /// with an nclx of matrix coefficients 0 (identity) and full range; the caller releases it.
    private static func identityImage(_ image: Image, depth: Int) throws(ImageEncodingError) -> OpaquePointer {
        let hasAlpha = image.pixelFormat.layout.hasAlpha
        let deep = depth > 8
        let source = image.converted(to: PixelFormat(layout: hasAlpha ? .rgba : .rgb, bitsPerSample: deep ? 16 : 8))
        var created: OpaquePointer?
        try check(
            pxp_heif_image_create(
                Int32(image.width), Int32(image.height), heif_colorspace_YCbCr, heif_chroma_444, &created))
        guard let heifImage = created else { throw failure("libheif could not create an image") }
        // The planes in coding order (Y, Cb, Cr) take the source's channels G, B, R.
        var planes: [(heif_channel, Int)] = [(heif_channel_Y, 1), (heif_channel_Cb, 2), (heif_channel_Cr, 0)]
        if hasAlpha { planes.append((heif_channel_Alpha, 3)) }
        let channels = source.pixelFormat.layout.channels
        do throws(ImageEncodingError) {
            guard let nclx = pxp_heif_nclx_color_profile_alloc() else { throw failure("libheif gave no nclx") }
            defer { pxp_heif_nclx_color_profile_free(nclx) }
            nclx.pointee.color_primaries = heif_color_primaries_ITU_R_BT_709_5
            nclx.pointee.transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1
            nclx.pointee.matrix_coefficients = heif_matrix_coefficients_RGB_GBR
            nclx.pointee.full_range_flag = 1
            try check(pxp_heif_image_set_nclx_color_profile(heifImage, nclx))
            for (channel, sourceChannel) in planes {
                try check(
                    pxp_heif_image_add_plane(
                        heifImage, channel, Int32(image.width), Int32(image.height), Int32(depth)))
                var stride: Int32 = 0
                guard let plane = pxp_heif_image_get_plane(heifImage, channel, &stride) else {
                    throw failure("libheif gave no plane")
                }
                source.withUnsafeBytes { bytes in
                    for row in 0..<source.height {
                        let destination = UnsafeMutableRawPointer(plane + row * Int(stride))
                        let rowStart = bytes.baseAddress! + row * source.bytesPerRow
                        if deep {
                            let words = rowStart.assumingMemoryBound(to: UInt16.self)
                            let out = destination.assumingMemoryBound(to: UInt16.self)
                            for x in 0..<source.width {
                                out[x] = (words[x * channels + sourceChannel] >> 6).littleEndian
                            }
                        } else {
                            let samples = rowStart.assumingMemoryBound(to: UInt8.self)
                            let out = destination.assumingMemoryBound(to: UInt8.self)
                            for x in 0..<source.width { out[x] = samples[x * channels + sourceChannel] }
                        }
                    }
                }
            }
        } catch {
            pxp_heif_image_release(heifImage)
            throw error
        }
        return heifImage
    }

    /// `image` as a libheif image of interleaved RGB(A) samples at `depth` bits; the caller releases it.
    private static func heifImage(_ image: Image, depth: Int) throws(ImageEncodingError) -> OpaquePointer {
        let hasAlpha = image.pixelFormat.layout.hasAlpha
        let source = image.converted(
            to: PixelFormat(layout: hasAlpha ? .rgba : .rgb, bitsPerSample: depth > 8 ? 16 : 8))
        let chroma: heif_chroma =
            switch (depth, hasAlpha) {
            case (8, false): heif_chroma_interleaved_RGB
            case (8, true): heif_chroma_interleaved_RGBA
            case (_, false): heif_chroma_interleaved_RRGGBB_LE
            case (_, true): heif_chroma_interleaved_RRGGBBAA_LE
            }
        var created: OpaquePointer?
        try check(
            pxp_heif_image_create(Int32(image.width), Int32(image.height), heif_colorspace_RGB, chroma, &created))
        guard let heifImage = created else { throw failure("libheif could not create an image") }
        do {
            try check(
                pxp_heif_image_add_plane(
                    heifImage, heif_channel_interleaved, Int32(image.width), Int32(image.height), Int32(depth)))
        } catch {
            pxp_heif_image_release(heifImage)
            throw error
        }
        var stride: Int32 = 0
        guard let plane = pxp_heif_image_get_plane(heifImage, heif_channel_interleaved, &stride) else {
            pxp_heif_image_release(heifImage)
            throw failure("libheif gave no plane")
        }
        source.withUnsafeBytes { bytes in
            let rowBytes = source.bytesPerRow
            for row in 0..<source.height {
                let destination = plane + row * Int(stride)
                UnsafeMutableRawPointer(destination).copyMemory(
                    from: bytes.baseAddress! + row * rowBytes, byteCount: rowBytes)
                if depth == 10 {
                    // 16-bit samples become 10-bit values, little-endian as the chroma names.
                    UnsafeMutableRawPointer(destination).withMemoryRebound(
                        to: UInt16.self, capacity: rowBytes / 2
                    ) { words in
                        for index in 0..<(rowBytes / 2) { words[index] = (words[index] >> 6).littleEndian }
                    }
                }
            }
        }
        return heifImage
    }

    private static func check(_ error: heif_error) throws(ImageEncodingError) {
        guard error.code != heif_error_Ok else { return }
        throw failure(error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)")
    }

    private static func failure(_ reason: String) -> ImageEncodingError {
        .libraryFailure(format: .heif, reason: pxp_heif_load_error().map { String(cString: $0) } ?? reason)
    }
}
