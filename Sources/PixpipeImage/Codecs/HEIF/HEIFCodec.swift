import CPixpipeHEIF
import Foundation

extension ImageFormat {
    /// High Efficiency Image File Format (HEIC: HEVC images in HEIF), through libheif.
    public static let heif = ImageFormat(rawValue: "heif")
}

/// HEIC/HEIF through libheif 1.15 (HEVC decoded by libde265, encoded by x265): 8, 10 and 12 bits, every
/// chroma format, alpha, grids, ICC and nclx colour, EXIF and XMP, several top-level images.
///
/// Pixels match libheif's own conversion (`heif-convert`): `irot`, `imir` and `clap` are applied by
/// libheif, so the decoded pixels are upright and ``ImageMetadata/orientation`` is `.up`; the EXIF
/// orientation stored in a HEIC (iPhones write both) is informative only and never applied on top.
/// 8-bit sources decode to 8-bit RGB(A); deeper ones to 16 bits with ``DecodeOptions/keeps16Bit``
/// (samples scaled by a shift, `v << (16 - depth)`, as `heif-convert` writes them), otherwise to libheif's
/// 8-bit conversion. Monochrome decodes as RGB, as libheif converts it.
///
/// | libheif | strict and lenient | why |
/// |---|---|---|
/// | `Invalid_input` at the end of the data (a box or extent past the end) | `.truncated` | bytes are missing; a HEVC image is all or nothing |
/// | other `Invalid_input`, `Decoder_plugin_error` | `.corrupt` | the boxes or the HEVC data are damaged |
/// | `Unsupported_feature`, `Unsupported_filetype` | `.unsupportedFeature` | a valid file libheif 1.15 cannot read (`unci`, `mini`) |
/// | `Security_limit_exceeded` | `.tooLarge` | the header declares more pixels than the limit |
struct HEIFCodec: ImageCodec {
    var format: ImageFormat { .heif }
    var fileExtensions: [String] { ["heic", "heif", "hif"] }
    var mediaTypes: [String] { ["image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence"] }
    var warningRules: [WarningRule] { HEIFWarningTable.rows }
    var canEncode: Bool { true }
    var defaultQuality: Int? { HEIFEncodeOptions.defaultQuality }
    var hasLosslessMode: Bool { true }
    // HEIC stores 16-bit samples at 10 bits (HEIFEncoder): deep input stays deep.
    var keepsDeepSamples: Bool { true }

    func matches(_ prefix: [UInt8]) -> Bool { ISOBMFFBrands.family(prefix) == .heif }

    func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo {
        let context = try HEIFContext(bytes: bytes, pixelLimit: nil)
        return ImageInfo(
            format: .heif, width: context.width, height: context.height,
            pixelFormat: Self.pixelFormat(depth: context.depth, hasAlpha: context.hasAlpha, keeps16Bit: true),
            metadata: HEIFMetadata.read(context.primary, depth: context.depth), imageCount: context.imageCount,
            auxiliaryImages: context.auxiliaryImages)
    }

    func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        let context = try HEIFContext(bytes: bytes, pixelLimit: options.pixelLimit)
        return try Self.decode(context.primary, depth: context.depth, options: options)
    }

    /// The pixel format a decode gives.
    static func pixelFormat(depth: Int, hasAlpha: Bool, keeps16Bit: Bool) -> PixelFormat {
        PixelFormat(layout: hasAlpha ? .rgba : .rgb, bitsPerSample: depth > 8 && keeps16Bit ? 16 : 8)
    }

    /// Decodes the image `handle` names, checking the pixel limit from its header first.
    static func decode(_ handle: OpaquePointer, depth: Int, options: DecodeOptions) throws(ImageDecodingError)
        -> Image
    {
        let width = Int(pxp_heif_image_handle_get_width(handle))
        let height = Int(pxp_heif_image_handle_get_height(handle))
        guard width > 0, height > 0 else { throw .corrupt(format: .heif, reason: "the image has no pixels") }
        try options.checkPixels(width: width, height: height)
        let hasAlpha = pxp_heif_image_handle_has_alpha_channel(handle) != 0
        let format = pixelFormat(depth: depth, hasAlpha: hasAlpha, keeps16Bit: options.keeps16Bit)
        let chroma: heif_chroma =
            switch (format.bitsPerSample, hasAlpha) {
            case (8, false): heif_chroma_interleaved_RGB
            case (8, true): heif_chroma_interleaved_RGBA
            case (_, false): heif_chroma_interleaved_RRGGBB_LE
            case (_, true): heif_chroma_interleaved_RRGGBBAA_LE
            }
        var decoded: OpaquePointer?
        let error = pxp_heif_decode_image(handle, &decoded, heif_colorspace_RGB, chroma, 1)
        guard error.code == heif_error_Ok, let decoded else { throw HEIFFailure.error(error) }
        defer { pxp_heif_image_release(decoded) }
        var stride: Int32 = 0
        guard let plane = pxp_heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride),
            Int(pxp_heif_image_get_width(decoded, heif_channel_interleaved)) == width,
            Int(pxp_heif_image_get_height(decoded, heif_channel_interleaved)) == height
        else { throw .corrupt(format: .heif, reason: "libheif returned no interleaved plane of the declared size") }
        let rowBytes = width * format.bytesPerPixel
        let shift = format.bitsPerSample == 16 ? UInt16(16 - depth) : 0
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
            count = rowBytes * height
            guard let destination = buffer.baseAddress else { return }
            for row in 0..<height {
                (destination + row * rowBytes).update(from: plane + row * Int(stride), count: rowBytes)
            }
            if shift > 0 {
                // libheif gives d-bit values in 16-bit words; heif-convert writes them shifted to 16 bits.
                UnsafeMutableRawPointer(destination).withMemoryRebound(to: UInt16.self, capacity: count / 2) { words in
                    for index in 0..<(count / 2) { words[index] = UInt16(littleEndian: words[index]) << shift }
                }
            }
        }
        var metadata = HEIFMetadata.read(handle, depth: depth)
        if metadata.cicp == nil {
            // libheif 1.15 gives the stream's own colour code points (HEVC VUI) only on the decoded image.
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            if pxp_heif_image_get_nclx_color_profile(decoded, &nclx).code == heif_error_Ok, let nclx {
                metadata.cicp = HEIFMetadata.cicp(nclx.pointee)
                pxp_heif_nclx_color_profile_free(nclx)
            }
        }
        return Image(width: width, height: height, pixelFormat: format, pixels: pixels, metadata: metadata)
    }

    func frameDecoder(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> any FrameDecoder {
        try HEIFPageDecoder(data: data, options: options)
    }

    func encode(_ image: Image, options: any ImageEncodeOptions) throws(ImageEncodingError) -> Data {
        try HEIFEncoder.encode(image, options: self.options(options, as: HEIFEncodeOptions.self))
    }

    func standardEncoding(_ settings: StandardEncodeSettings) -> ImageEncoding? {
        .heif(
            HEIFEncodeOptions(
                quality: settings.quality ?? HEIFEncodeOptions.defaultQuality, lossless: settings.lossless,
                includesMetadata: settings.keepsMetadata))
    }
}

/// What libheif reads besides the pixels: ICC or nclx colour, EXIF (from its TIFF header on) and XMP.
enum HEIFMetadata {
    /// The metadata of the image `handle` names; the orientation stays `.up` (libheif applies irot/imir).
    static func read(_ handle: OpaquePointer, depth: Int) -> ImageMetadata {
        var metadata = ImageMetadata(sourceFormat: .heif, sourceBitDepth: depth)
        let profileType = pxp_heif_image_handle_get_color_profile_type(handle)
        if profileType == heif_color_profile_type_prof || profileType == heif_color_profile_type_rICC {
            let size = pxp_heif_image_handle_get_raw_color_profile_size(handle)
            if size > 0 {
                var profile = [UInt8](repeating: 0, count: size)
                if pxp_heif_image_handle_get_raw_color_profile(handle, &profile).code == heif_error_Ok {
                    metadata.iccProfile = profile
                }
            }
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        // Asked whatever the profile type says: a file may carry nclx beside an ICC profile.
        if pxp_heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx {
            metadata.cicp = cicp(nclx.pointee)
            pxp_heif_nclx_color_profile_free(nclx)
        }
        for (type, contentType, bytes) in blocks(handle) {
            if type == "Exif", bytes.count > 4 {
                // libheif keeps the item's 4-byte offset to the TIFF header in front.
                let offset = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
                if offset >= 0, 4 + offset < bytes.count { metadata.exif = tiffBlock(Array(bytes[(4 + offset)...])) }
                if let exif = metadata.exif, let tagged = EXIFReader.orientation(tiff: exif), tagged != .up {
                    metadata.warnings.append(
                        HEIFWarningTable.exifOrientationIgnored.warning(
                            "the Exif orientation \(tagged.rawValue) is not applied: irot/imir decide how the "
                                + "picture is shown"))
                }
            } else if type == "mime", contentType == "application/rdf+xml" {
                metadata.xmp = bytes
            }
        }
        return metadata
    }

    /// libheif's colour code points as ``ColorCICP``.
    static func cicp(_ nclx: heif_color_profile_nclx) -> ColorCICP {
        ColorCICP(
            colorPrimaries: Int(nclx.color_primaries.rawValue),
            transferCharacteristics: Int(nclx.transfer_characteristics.rawValue),
            matrixCoefficients: Int(nclx.matrix_coefficients.rawValue), fullRange: nclx.full_range_flag != 0)
    }

    /// `bytes` from its TIFF byte-order mark on, or `nil` when it does not start with one.
    private static func tiffBlock(_ bytes: [UInt8]) -> [UInt8]? {
        bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) ? bytes : nil
    }

    /// Every metadata item of the image: its type, content type and bytes.
    private static func blocks(_ handle: OpaquePointer) -> [(String, String, [UInt8])] {
        let count = Int(pxp_heif_image_handle_get_number_of_metadata_blocks(handle, nil))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let filled = Int(pxp_heif_image_handle_get_list_of_metadata_block_IDs(handle, nil, &ids, Int32(count)))
        return ids.prefix(filled).compactMap { id in
            let type = pxp_heif_image_handle_get_metadata_type(handle, id).map { String(cString: $0) } ?? ""
            let content = pxp_heif_image_handle_get_metadata_content_type(handle, id).map { String(cString: $0) } ?? ""
            let size = pxp_heif_image_handle_get_metadata_size(handle, id)
            guard size > 0, size < 64 << 20 else { return nil }
            var bytes = [UInt8](repeating: 0, count: size)
            guard pxp_heif_image_handle_get_metadata(handle, id, &bytes).code == heif_error_Ok else { return nil }
            return (type, content, bytes)
        }
    }
}
