import Foundation

/// One step of image processing as a value: a thumbnail, a resize, the EXIF orientation applied, or a
/// composition of steps.
///
/// ```swift
/// let steps: [any ImageProcessing] = [.orientation, .resize(width: 640, height: 480)]
/// let small = try ImageProcessors.Composition(steps).process(image)
/// print(ImageProcessors.Composition(steps).identifier)   // orientation|resize(640x480,filter:lanczos3,linear:false)
/// ```
///
/// The command line, the downloader and caches share these values. ``identifier`` names a step and every
/// parameter that changes its pixels, so two values with the same identifier make the same pixels from the
/// same source and a cache may key on it; parameters that only bound work or memory (limits, threads) are
/// left out.
///
/// The first step of a chain may start from the encoded bytes (``process(data:options:)``): a thumbnail
/// decodes a JPEG at a reduced DCT scale or streams a PNG row by row instead of decoding it whole. The
/// default decodes the bytes fully and calls ``process(_:)``.
public protocol ImageProcessing: Sendable {
    /// A deterministic text naming the step and every parameter that changes its pixels.
    var identifier: String { get }

    /// The step applied to a decoded image.
    func process(_ image: Image) throws(ImageProcessingError) -> Image

    /// The step applied to encoded bytes of any format the codec table decodes, decoded under `options`.
    func process(data: Data, options: DecodeOptions) throws(ImageProcessingError) -> Image
}

extension ImageProcessing {
    /// Decodes `data` fully under `options` and processes the image.
    public func process(data: Data, options: DecodeOptions) throws(ImageProcessingError) -> Image {
        try process(Self.decode(data, options: options))
    }

    /// `data` decoded under `options`, a failure reported as ``ImageProcessingError/decoding(_:)``.
    static func decode(_ data: Data, options: DecodeOptions) throws(ImageProcessingError) -> Image {
        do {
            return try Image(data: data, options: options)
        } catch {
            throw .decoding(error)
        }
    }
}

/// The processors of ``ImageProcessing``, each a small value; short names such as `.thumbnail(...)` stand
/// for them wherever an `ImageProcessing` is expected.
public enum ImageProcessors {}
