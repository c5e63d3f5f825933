import Dispatch
import Foundation

extension Image {
    /// The image resampled to `width` x `height` pixels with `filter` (Lanczos-3 by default).
    ///
    /// ```swift
    /// let thumbnail = try photo.resized(width: 400, height: 300)
    /// let soft = try photo.resized(width: 400, height: 300, filter: .box, options: .init(linearLight: true))
    /// ```
    ///
    /// The filter is separable and widened by the downscale factor; alpha is handled premultiplied, so
    /// transparent pixels never bleed colour into visible ones (fully transparent output pixels are
    /// transparent black). Every pixel format keeps its format; metadata is kept as it is, but for a clean
    /// aperture, which is scaled with the pixels (edges rounded outwards). Large images are split across
    /// cores (see ``ResizeOptions/maximumConcurrency``). The same size returns the image unchanged.
    public func resized(
        width outputWidth: Int, height outputHeight: Int, filter: ResizeFilter = .lanczos3,
        options: ResizeOptions = .init()
    ) throws(ImageProcessingError) -> Image {
        guard outputWidth > 0, outputHeight > 0,
            !outputWidth.multipliedReportingOverflow(by: outputHeight).overflow,
            !(outputWidth * outputHeight).multipliedReportingOverflow(by: pixelFormat.bytesPerPixel).overflow
        else { throw .invalidSize(width: outputWidth, height: outputHeight) }
        if outputWidth == width && outputHeight == height { return self }
        let resampler = Resampler(
            sourceWidth: width, sourceHeight: height, outputWidth: outputWidth, outputHeight: outputHeight,
            format: pixelFormat, filter: filter, linearLight: options.linearLight)
        var result = Image(width: outputWidth, height: outputHeight, pixelFormat: pixelFormat, metadata: metadata)
        result.metadata.cleanAperture = metadata.cleanAperture?.scaled(
            fromWidth: width, height: height, toWidth: outputWidth, height: outputHeight)
        let bands = Self.bandCount(for: resampler, rows: outputHeight, limit: options.maximumConcurrency)
        withUnsafeBytes { source in
            result.withUnsafeMutableBytes { destination in
                guard let sourceBase = source.baseAddress, let destinationBase = destination.baseAddress else { return }
                if bands == 1 {
                    resampler.resampleRows(0..<outputHeight, source: sourceBase, destination: destinationBase)
                    return
                }
                let buffers = ResampleBuffers(source: sourceBase, destination: destinationBase)
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    let rows = (band * outputHeight / bands)..<((band + 1) * outputHeight / bands)
                    resampler.resampleRows(rows, source: buffers.source, destination: buffers.destination)
                }
            }
        }
        return result
    }

    /// How many bands of output rows to run in parallel: one for small jobs, where threads cost more
    /// than they save, else one per allowed core (each band re-prepares a few overlapping source rows).
    private static func bandCount(for resampler: Resampler, rows: Int, limit: Int?) -> Int {
        let minimumWorkPerBand = 1 << 21
        let cores = max(1, min(limit ?? .max, ProcessInfo.processInfo.activeProcessorCount))
        return max(1, min(cores, rows / 8, resampler.estimatedWork / minimumWorkPerBand))
    }
}

/// The source and destination pixel memory of one resize, handed to the band workers.
///
/// `@unchecked Sendable` is safe here because of how `Image.resized` uses it: `source` is only read
/// while the source image's bytes are pinned; each worker writes only the output rows of its own band,
/// and bands are disjoint ranges of rows, so no two threads write the same byte and nobody reads what
/// is written; `DispatchQueue.concurrentPerform` returns only after every worker has finished, inside
/// the closures that keep both buffers alive, so the pointers never outlive their memory.
struct ResampleBuffers: @unchecked Sendable {
    /// The source pixels, read-only.
    let source: UnsafeRawPointer
    /// The output pixels; each band writes its own rows.
    let destination: UnsafeMutableRawPointer
}

extension Image {
    /// The image resampled so that the picture as shown fits inside `box`, keeping its aspect ratio; never
    /// enlarged unless `allowsUpscaling`.
    ///
    /// ```swift
    /// let preview = try Image(contentsOf: photoURL).resized(toFit: ImageSize(width: 800, height: 800))
    /// ```
    ///
    /// The box is in shown pixels (``shownSize``): a photo stored on its side with an EXIF orientation of 6
    /// is fitted upright, and its orientation is kept in the metadata, so ``applyingOrientation()`` still
    /// turns it. One side matches the box, the other is shorter or equal, at least one pixel. The sizes are
    /// planned as the thumbnailer's `.fit` mode plans them; the pixels are those of
    /// ``resized(width:height:filter:options:)``.
    public func resized(
        toFit box: ImageSize, allowsUpscaling: Bool = false, filter: ResizeFilter = .lanczos3,
        options: ResizeOptions = .init()
    ) throws(ImageProcessingError) -> Image {
        let swaps = metadata.orientation.swapsDimensions
        let storedBox = swaps ? ImageSize(width: box.height, height: box.width) : box
        let geometry: ThumbnailGeometry
        do {
            geometry = try ThumbnailGeometry(
                sourceWidth: width, sourceHeight: height,
                options: ThumbnailOptions(
                    size: .box(width: storedBox.width, height: storedBox.height), mode: .fit,
                    allowsUpscaling: allowsUpscaling))
        } catch {
            throw .invalidSize(width: box.width, height: box.height)
        }
        return try resized(
            width: geometry.resizedWidth, height: geometry.resizedHeight, filter: filter, options: options)
    }
}

/// How a resize treats colour and how many cores it may use.
public struct ResizeOptions: Sendable, Hashable {
    /// Resample in linear light: sRGB samples are decoded to linear, filtered, and encoded again.
    ///
    /// Off by default, like most tools: filtering the stored values directly is faster and what users
    /// compare against, but linear light keeps fine bright-on-dark detail at its true brightness.
    public var linearLight: Bool
    /// The most worker threads one resize uses; `nil` means one per active core.
    ///
    /// A batch that already resizes several images at once can set 1 to avoid oversubscription.
    public var maximumConcurrency: Int?

    /// Options; the defaults filter stored values on every core.
    public init(linearLight: Bool = false, maximumConcurrency: Int? = nil) {
        self.linearLight = linearLight
        self.maximumConcurrency = maximumConcurrency
    }
}
