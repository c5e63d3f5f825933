import CPixpipeHEIF
import Foundation

/// The top-level images of a HEIF file as pages, in the file's order (`--frame N`, ``AnimationReader``).
///
/// HEIF pages are separate pictures, not an animation: each has its own size and no duration. The canvas
/// is the primary image's size; the limits are checked against every page's own size. The bytes are copied once into memory the decoder owns, because libheif
/// reads them while pages decode.
final class HEIFPageDecoder: FrameDecoder {
    private let storage: UnsafeMutableRawBufferPointer
    private let context: HEIFContext
    private let ids: [heif_item_id]
    private let options: DecodeOptions
    private var index = 0

    let canvasWidth: Int
    let canvasHeight: Int
    var frameCount: Int { ids.count }
    /// Pages do not loop: 0, as for a still image.
    var loopCount: Int { 0 }
    /// Pages differ in size: each was checked, and all of them together, at ``init(data:options:)``.
    var framesHaveTheirOwnSizes: Bool { true }

    /// Parses `data` and, before any page, checks the page count, every page's size, and their sum against
    /// `options`.
    init(data: Data, options: DecodeOptions) throws(ImageDecodingError) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        storage.copyBytes(from: data)
        do {
            context = try HEIFContext(
                bytes: UnsafeRawBufferPointer(rebasing: storage[..<data.count]), pixelLimit: options.pixelLimit)
            ids = context.topLevelIDs.isEmpty ? [0] : context.topLevelIDs
            try Self.check(context, ids: ids, options: options)
        } catch {
            storage.deallocate()
            throw error
        }
        self.options = options
        canvasWidth = context.width
        canvasHeight = context.height
    }

    deinit { storage.deallocate() }

    /// The frame limit, every page's pixels, and the pixels of all pages together, each page at its own
    /// size (pages differ in size, so the primary's size times the count says nothing of the total). The
    /// sizes come from the image handles: no page is decoded.
    private static func check(_ context: HEIFContext, ids: [heif_item_id], options: DecodeOptions)
        throws(ImageDecodingError)
    {
        if let frameLimit = options.frameLimit, ids.count > frameLimit {
            throw .tooManyFrames(count: ids.count, limit: frameLimit)
        }
        var total = 0
        for id in ids {
            let (width, height): (Int, Int)
            if id == 0 {
                (width, height) = (context.width, context.height)
            } else {
                let handle = try context.handle(id)
                (width, height) = (
                    Int(pxp_heif_image_handle_get_width(handle)), Int(pxp_heif_image_handle_get_height(handle))
                )
                pxp_heif_image_handle_release(handle)
            }
            try options.checkPixels(width: width, height: height)
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            let (sum, overflowSum) = total.addingReportingOverflow(pixels)
            total = overflow || overflowSum ? Int.max : sum
            if let limit = options.animationPixelLimit, total > limit {
                throw .animationTooLarge(width: context.width, height: context.height, frames: ids.count, limit: limit)
            }
        }
    }

    func nextFrame() throws(ImageDecodingError) -> AnimationFrame? {
        guard index < ids.count else { return nil }
        defer { index += 1 }
        let image: Image
        if ids[index] == 0 {
            image = try HEIFCodec.decode(context.primary, depth: context.depth, options: options)
        } else {
            let handle = try context.handle(ids[index])
            defer { pxp_heif_image_handle_release(handle) }
            let depth = max(Int(pxp_heif_image_handle_get_luma_bits_per_pixel(handle)), 8)
            image = try HEIFCodec.decode(handle, depth: depth, options: options)
        }
        return AnimationFrame(index: index, image: image, duration: .zero)
    }
}
