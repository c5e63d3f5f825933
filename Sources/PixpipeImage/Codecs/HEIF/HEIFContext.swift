import CPixpipeHEIF
import Foundation

/// Whether HEVC images go through FFmpeg's libavcodec (about 1.6 times as fast as libde265, with the same
/// pixels, since HEVC decoding is exact); `PIXPIPE_HEVC=libde265` keeps libheif's own decoder. Read once.
let heifDecodesHEVCWithLibavcodec: Bool = ProcessInfo.processInfo.environment["PIXPIPE_HEVC"] != "libde265"

/// One libheif context over bytes that outlive it, and the primary image's handle.
///
/// Reading the file parses the boxes only; no HEVC data is decoded and no pixel buffer exists, so the
/// package's limits are checked from the header (`ispe`, the grid's declared size) before any decode.
final class HEIFContext {
    private let context: OpaquePointer
    /// The primary image.
    let primary: OpaquePointer

    /// Parses `bytes`, which must stay valid while the context lives; `pixelLimit` names the limit in the
    /// error when libheif's own side limit (32,768) refuses an image or grid while parsing.
    /// `decodingThreads` bounds the threads libheif decodes a grid's tiles on (1: the calling thread only);
    /// `nil` keeps libheif's default (4).
    init(bytes: UnsafeRawBufferPointer, pixelLimit: Int?, decodingThreads: Int? = nil) throws(ImageDecodingError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw .truncated(format: .heif, reason: "empty input")
        }
        guard let context = pxp_heif_context_alloc() else {
            // Loaded on first use (Sources/CPixpipe/HEIF): a missing library fails here, not at start-up.
            let reason = pxp_heif_load_error().map { String(cString: $0) } ?? "libheif could not create a context"
            throw .unsupportedFeature(format: .heif, feature: reason)
        }
        // libheif's own limit is on each side, and it refuses a file while reading it, before the header's size
        // is known to us: kept at its default (32,768) so that a small pixel limit is refused by the pixel
        // check below, from the header, with the image's size in the error.
        pxp_heif_context_set_maximum_image_size_limit(context, 32768)
        if heifDecodesHEVCWithLibavcodec {
            pxp_heif_context_use_libavcodec_hevc(context)
        }
        if let decodingThreads {
            // libheif's 1 still starts one background thread; 0 decodes the tiles on this one.
            pxp_heif_context_set_max_decoding_threads(context, decodingThreads <= 1 ? 0 : Int32(decodingThreads))
        }
        var error = pxp_heif_context_read_from_memory_without_copy(context, base, bytes.count)
        guard error.code == heif_error_Ok else {
            // The message lives in the context: read it before freeing.
            let failure = HEIFFailure.error(error, pixelLimit: pixelLimit)
            pxp_heif_context_free(context)
            throw failure
        }
        var handle: OpaquePointer?
        error = pxp_heif_context_get_primary_image_handle(context, &handle)
        guard error.code == heif_error_Ok, let handle else {
            let failure = HEIFFailure.error(error)
            pxp_heif_context_free(context)
            throw failure
        }
        self.context = context
        primary = handle
    }

    deinit {
        pxp_heif_image_handle_release(primary)
        pxp_heif_context_free(context)
    }

    /// Width of the primary image as shown (after `irot` and `clap`).
    var width: Int { Int(pxp_heif_image_handle_get_width(primary)) }
    /// Height of the primary image as shown.
    var height: Int { Int(pxp_heif_image_handle_get_height(primary)) }
    /// Bits per luma sample of the primary image.
    var depth: Int { max(Int(pxp_heif_image_handle_get_luma_bits_per_pixel(primary)), 8) }
    /// Whether the primary image has an alpha auxiliary image.
    var hasAlpha: Bool { pxp_heif_image_handle_has_alpha_channel(primary) != 0 }
    /// Top-level images (pages) in the file.
    var imageCount: Int { max(Int(pxp_heif_context_get_number_of_top_level_images(context)), 1) }

    /// The top-level images' item IDs in the file's order.
    var topLevelIDs: [heif_item_id] {
        let count = Int(pxp_heif_context_get_number_of_top_level_images(context))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let filled = Int(pxp_heif_context_get_list_of_top_level_image_IDs(context, &ids, Int32(count)))
        return Array(ids.prefix(filled))
    }

    /// A handle on the top-level image `id`; the caller releases it.
    func handle(_ id: heif_item_id) throws(ImageDecodingError) -> OpaquePointer {
        var handle: OpaquePointer?
        let error = pxp_heif_context_get_image_handle(context, id, &handle)
        guard error.code == heif_error_Ok, let handle else { throw HEIFFailure.error(error) }
        return handle
    }

    /// The smallest thumbnail image of the primary that is at least `width` x `height` pixels as shown, or
    /// `nil` when none is; the caller releases the handle.
    ///
    /// A thumbnail qualifies only when it has alpha if the primary has, and the primary's shape: its sides
    /// in the primary's proportions as shown (within 2%, or 2 pixels for tiny ones, as writers round the
    /// sides), since libheif applies each item's own `irot`/`imir`, and a thumbnail written without the
    /// primary's rotation would come out turned.
    func thumbnail(atLeast width: Int, _ height: Int) -> OpaquePointer? {
        let count = Int(pxp_heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let filled = Int(pxp_heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count)))
        var best: (handle: OpaquePointer, pixels: Int)?
        for id in ids.prefix(filled) {
            var found: OpaquePointer?
            guard pxp_heif_image_handle_get_thumbnail(primary, id, &found).code == heif_error_Ok, let handle = found
            else { continue }
            let shownWidth = Int(pxp_heif_image_handle_get_width(handle))
            let shownHeight = Int(pxp_heif_image_handle_get_height(handle))
            let alphaFits = !hasAlpha || pxp_heif_image_handle_has_alpha_channel(handle) != 0
            let pixels = shownWidth * shownHeight
            if shownWidth >= width, shownHeight >= height, alphaFits,
                Self.sameShape(shownWidth, shownHeight, self.width, self.height),
                pixels < best?.pixels ?? Int.max
            {
                if let previous = best { pxp_heif_image_handle_release(previous.handle) }
                best = (handle, pixels)
            } else {
                pxp_heif_image_handle_release(handle)
            }
        }
        return best?.handle
    }

    /// Whether a `width` x `height` picture has the proportions of a `primaryWidth` x `primaryHeight` one.
    static func sameShape(_ width: Int, _ height: Int, _ primaryWidth: Int, _ primaryHeight: Int) -> Bool {
        guard width > 0, height > 0, primaryWidth > 0, primaryHeight > 0 else { return false }
        let expectedWidth = Double(height) * Double(primaryWidth) / Double(primaryHeight)
        return abs(Double(width) - expectedWidth) <= max(2, 0.02 * Double(width))
    }

    /// The primary image's thumbnails and depth maps, with their sizes.
    var auxiliaryImages: [AuxiliaryImage] {
        var images: [AuxiliaryImage] = []
        let thumbnails = Int(pxp_heif_image_handle_get_number_of_thumbnails(primary))
        if thumbnails > 0 {
            var ids = [heif_item_id](repeating: 0, count: thumbnails)
            let filled = Int(pxp_heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(thumbnails)))
            for id in ids.prefix(filled) {
                var thumbnail: OpaquePointer?
                guard pxp_heif_image_handle_get_thumbnail(primary, id, &thumbnail).code == heif_error_Ok,
                    let thumbnail
                else { continue }
                images.append(
                    AuxiliaryImage(
                        kind: .thumbnail, type: "thmb", width: Int(pxp_heif_image_handle_get_width(thumbnail)),
                        height: Int(pxp_heif_image_handle_get_height(thumbnail))))
                pxp_heif_image_handle_release(thumbnail)
            }
        }
        let depths = Int(pxp_heif_image_handle_get_number_of_depth_images(primary))
        if depths > 0 {
            var ids = [heif_item_id](repeating: 0, count: depths)
            let filled = Int(pxp_heif_image_handle_get_list_of_depth_image_IDs(primary, &ids, Int32(depths)))
            for id in ids.prefix(filled) {
                var depth: OpaquePointer?
                guard pxp_heif_image_handle_get_depth_image_handle(primary, id, &depth).code == heif_error_Ok,
                    let depth
                else { continue }
                images.append(
                    AuxiliaryImage(
                        kind: .depth, type: "auxl", width: Int(pxp_heif_image_handle_get_width(depth)),
                        height: Int(pxp_heif_image_handle_get_height(depth))))
                pxp_heif_image_handle_release(depth)
            }
        }
        return images
    }
}

/// How libheif's errors become ``ImageDecodingError`` cases.
enum HEIFFailure {
    /// The typed error for libheif's `error`.
    static func error(_ error: heif_error, pixelLimit: Int? = nil) -> ImageDecodingError {
        let message =
            error.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
            ?? "libheif error \(error.code.rawValue)"
        if error.subcode == heif_suberror_Security_limit_exceeded {
            // libheif names the size it refused ("... 65535x65535 ..."); the limit is ours.
            let size = message.split(whereSeparator: { !$0.isNumber && $0 != "x" }).first { $0.contains("x") }
            let sides = size?.split(separator: "x").compactMap { Int($0) } ?? []
            return .tooLarge(
                width: sides.first ?? 0, height: sides.dropFirst().first ?? 0, limit: pixelLimit ?? 0)
        }
        switch error.code {
        case heif_error_Unsupported_feature, heif_error_Unsupported_filetype:
            return .unsupportedFeature(format: .heif, feature: message)
        case heif_error_Invalid_input
        where error.subcode == heif_suberror_End_of_data || message.contains("end of file")
            || message.contains("outside of file bounds"):
            return .truncated(format: .heif, reason: message)
        default:
            return .corrupt(format: .heif, reason: message)
        }
    }
}
