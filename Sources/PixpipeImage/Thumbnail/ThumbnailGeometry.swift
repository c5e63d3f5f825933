/// Where a thumbnail's pixels come from: the size to resize the upright picture to, then the part to keep.
///
/// Pure arithmetic on sizes, shared by the thumbnailer and `pixpipe convert --resize`.
///
/// ```swift
/// let plan = try ThumbnailGeometry(sourceWidth: 4000, sourceHeight: 3000, options: .init(size: .box(256)))
/// // plan.resizedWidth == 256, plan.resizedHeight == 192, plan.crop == nil
/// ```
package struct ThumbnailGeometry: Sendable, Hashable {
    /// The width the upright picture is resized to.
    package let resizedWidth: Int
    /// The height the upright picture is resized to.
    package let resizedHeight: Int
    /// The centred part of the resized picture kept in `.fill` mode; `nil` keeps all of it.
    package let crop: PixelRect?

    /// The output width.
    package var outputWidth: Int { crop?.width ?? resizedWidth }
    /// The output height.
    package var outputHeight: Int { crop?.height ?? resizedHeight }

    /// The plan for an upright picture of `sourceWidth` x `sourceHeight` pixels.
    package init(sourceWidth: Int, sourceHeight: Int, options: ThumbnailOptions) throws(ImageProcessingError) {
        precondition(sourceWidth > 0 && sourceHeight > 0, "an image has at least one pixel")
        let width = Double(sourceWidth)
        let height = Double(sourceHeight)
        let (boxWidth, boxHeight, cover): (Int, Int, Bool)
        var scale: Double
        if options.mode == .stretch, case .box(let targetWidth, let targetHeight) = options.size {
            guard targetWidth > 0, targetHeight > 0, !targetWidth.multipliedReportingOverflow(by: targetHeight).overflow
            else { throw .invalidThumbnailSize(options.size) }
            (resizedWidth, resizedHeight, crop) = (targetWidth, targetHeight, nil)
            return
        }
        switch options.size {
        case .box(let targetWidth, let targetHeight):
            (boxWidth, boxHeight, cover) = (targetWidth, targetHeight, options.mode == .fill)
            guard targetWidth > 0, targetHeight > 0 else { throw .invalidThumbnailSize(options.size) }
            let horizontal = Double(targetWidth) / width
            let vertical = Double(targetHeight) / height
            scale = cover ? max(horizontal, vertical) : min(horizontal, vertical)
        case .width(let target):
            guard target > 0 else { throw .invalidThumbnailSize(options.size) }
            (boxWidth, boxHeight, cover) = (target, Int.max, false)
            scale = Double(target) / width
        case .height(let target):
            guard target > 0 else { throw .invalidThumbnailSize(options.size) }
            (boxWidth, boxHeight, cover) = (Int.max, target, false)
            scale = Double(target) / height
        case .scale(let factor):
            guard factor > 0, factor.isFinite else { throw .invalidThumbnailSize(options.size) }
            (boxWidth, boxHeight, cover) = (Int.max, Int.max, false)
            scale = factor
        }
        if !options.allowsUpscaling { scale = min(scale, 1) }
        if !options.allowsDownscaling { scale = max(scale, 1) }
        // A side that the scale was chosen from comes out exact, never one pixel off through rounding.
        let scaledWidth = Self.side(width * scale, exact: scale == Double(boxWidth) / width ? boxWidth : nil)
        let scaledHeight = Self.side(height * scale, exact: scale == Double(boxHeight) / height ? boxHeight : nil)
        guard let scaledWidth, let scaledHeight, !scaledWidth.multipliedReportingOverflow(by: scaledHeight).overflow
        else { throw .invalidThumbnailSize(options.size) }
        resizedWidth = scaledWidth
        resizedHeight = scaledHeight
        if cover && (scaledWidth > boxWidth || scaledHeight > boxHeight) {
            let keptWidth = min(boxWidth, scaledWidth)
            let keptHeight = min(boxHeight, scaledHeight)
            crop = PixelRect(
                x: (scaledWidth - keptWidth) / 2, y: (scaledHeight - keptHeight) / 2, width: keptWidth,
                height: keptHeight)
        } else {
            crop = nil
        }
    }

    /// A scaled side rounded to whole pixels, at least 1; `nil` when it is beyond any allocatable size.
    private static func side(_ value: Double, exact: Int?) -> Int? {
        if let exact { return exact }
        guard value.isFinite, value < Double(1 << 31) else { return nil }
        return max(1, Int(value.rounded()))
    }
}
