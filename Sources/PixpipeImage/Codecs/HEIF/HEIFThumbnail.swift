import CPixpipeHEIF
import Foundation

extension HEIFCodec {
    /// A thumbnail from the file's own thumbnail image when one is at least the size the thumbnail is resized
    /// to (phones store one of 320 px or more beside the 12 MP primary), so the primary's HEVC data, most of
    /// the time of a HEIC thumbnail, is not decoded at all; otherwise from the primary, decoded in full.
    ///
    /// The plan is the primary's (its size as shown, the source limit), and so is the metadata: its EXIF,
    /// XMP and bit depth, and its colour unless the thumbnail item carries colour of its own (an ICC profile
    /// or nclx), which then describes the thumbnail's pixels. libheif applies the thumbnail item's own
    /// `irot`/`imir`/`clap`; one whose shape is not the primary's as shown (written without the primary's
    /// rotation) is not used. A thumbnail that fails to decode falls back to the primary.
    func thumbnail(_ source: ThumbnailSource, by thumbnailer: Thumbnailer) throws(ImageProcessingError) -> Image {
        try source.withBytes { (bytes) throws(ImageProcessingError) in
            let options = thumbnailer.options
            // One parse for the plan and the decode (the shared path parses the boxes twice). A grid's tiles
            // decode on up to one thread per core, not libheif's 4, and not on one thread even when the batch
            // runs a thumbnail per core (maximumConcurrency 1): the batch's last files, or a lone file, would
            // leave cores idle, and two workers of two tile threads each on 2 cores cost no more CPU time
            // than one each (docs/benchmarks.md, the HEIC folder rows).
            let context = try Thumbnailer.decoding { () throws(ImageDecodingError) in
                try HEIFContext(
                    bytes: bytes, pixelLimit: options.pixelLimit,
                    decodingThreads: ProcessInfo.processInfo.activeProcessorCount)
            }
            let plan = try Thumbnailer.Plan(
                width: context.width, height: context.height, orientation: .up, format: .heif, options)
            let decodeOptions = thumbnailer.fullDecodeOptions
            if let handle = context.thumbnail(atLeast: plan.storedWidth, plan.storedHeight) {
                defer { pxp_heif_image_handle_release(handle) }
                if let image = try? Self.decodeThumbnail(handle, of: context, options: decodeOptions) {
                    return try thumbnailer.finish(image, plan: plan)
                }
            }
            let image = try Thumbnailer.decoding { () throws(ImageDecodingError) in
                try Self.decode(context.primary, depth: context.depth, options: decodeOptions)
            }
            return try thumbnailer.finish(image, plan: plan)
        }
    }

    /// The thumbnail image `handle` decoded, with the primary's metadata and, unless the thumbnail item has
    /// colour of its own, the primary's colour.
    private static func decodeThumbnail(
        _ handle: OpaquePointer, of context: HEIFContext, options: DecodeOptions
    ) throws(ImageDecodingError) -> Image {
        let depth = max(Int(pxp_heif_image_handle_get_luma_bits_per_pixel(handle)), 8)
        var image = try decode(handle, depth: depth, options: options)
        var metadata = HEIFMetadata.read(context.primary, depth: context.depth)
        if pxp_heif_image_handle_get_color_profile_type(handle) != heif_color_profile_type_not_present {
            metadata.iccProfile = image.metadata.iccProfile
            metadata.cicp = image.metadata.cicp
        } else if metadata.cicp == nil {
            // The primary's code points may live only in its HEVC stream (VUI); the thumbnail's stand in.
            metadata.cicp = image.metadata.cicp
        }
        image.metadata = metadata
        return image
    }
}
