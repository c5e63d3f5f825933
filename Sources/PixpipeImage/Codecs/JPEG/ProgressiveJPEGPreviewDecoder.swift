/// Decodes previews of a progressive JPEG from the bytes received so far, one per newly completed scan.
///
/// Feed it the whole prefix each time more bytes arrive; it returns an ``Image`` when at least one
/// more scan has completed since the last preview, and nil otherwise (and always nil for a baseline
/// JPEG or a file that is not a JPEG at all: only progressive files have scans worth showing).
///
/// ```swift
/// var previews = ProgressiveJPEGPreviewDecoder(maxPixelSize: 256)
/// if let preview = try previews.preview(for: receivedSoFar) { show(preview) }
/// ```
///
/// How: libjpeg's buffered-image mode would keep one decoder alive across the download, but libjpeg's
/// suspending sources cannot be resumed after a `longjmp` out of an error, and the decoder would have to
/// live on one thread. Instead, the prefix is cut at the end of the last complete scan, an EOI marker is
/// put after it, and that is decoded as a whole file: libjpeg then outputs exactly what buffered-image
/// mode outputs after that scan (coefficients not yet sent are zero, smoothed as libjpeg smooths them).
/// Each preview costs one decode of the prefix, so ask for a small `maxPixelSize`: libjpeg's DCT scaling
/// makes a 1/8 decode several times cheaper. The image is as stored: EXIF orientation is the caller's.
public struct ProgressiveJPEGPreviewDecoder: Sendable {
    /// Limits and strictness for every preview decode; its `jpegScale` is replaced when `maxPixelSize` is set.
    public var options: DecodeOptions
    /// When set, previews are decoded at the smallest DCT scale whose longer side is at least this.
    public var maxPixelSize: Int?

    /// Where the scans end in the bytes seen so far.
    private var tracker = JPEGScanTracker()
    /// Complete scans when the last preview was made.
    private var scansShown = 0

    /// A decoder for one download.
    public init(options: DecodeOptions = DecodeOptions(), maxPixelSize: Int? = nil) {
        self.options = options
        self.maxPixelSize = maxPixelSize
    }

    /// How many scans have completed in the bytes seen so far.
    public var completedScans: Int { tracker.completeScans }

    /// Whether the bytes seen so far are known to be of a progressive JPEG; false until the frame header.
    public var isProgressive: Bool { tracker.isProgressive == true }

    /// Whether the bytes seen so far show that no preview will ever come (a baseline JPEG, another format).
    public var givesNoPreviews: Bool { tracker.isProgressive == false }

    /// The preview for `bytes` (everything received so far, which must begin with the bytes given before),
    /// or nil when no scan completed since the last preview or the data is not a progressive JPEG.
    ///
    /// Throws ``ImageDecodingError`` when the data is damaged or over the limits of ``options``.
    public mutating func preview(for bytes: [UInt8]) throws(ImageDecodingError) -> Image? {
        // A baseline file's scans are not followed: it will never give a preview.
        guard tracker.isProgressive != false else { return nil }
        try options.checkBytes(bytes.count)
        var advanced = tracker
        let advancing: Result<Void, ImageDecodingError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(ImageDecodingError) in try advanced.advance(buffer) }
        }
        try advancing.get()
        tracker = advanced
        guard advanced.isProgressive == true, advanced.completeScans > scansShown else { return nil }
        // The pixel limit is checked by the decode against the size it allocates, before allocating.
        var decodeOptions = options
        if let maxPixelSize, maxPixelSize > 0 {
            decodeOptions.jpegScale =
                advanced.width >= advanced.height
                ? .atLeast(width: maxPixelSize, height: 1) : .atLeast(width: 1, height: maxPixelSize)
        }
        var prefix = Array(bytes[..<advanced.completeScansEnd])
        prefix.append(contentsOf: [0xFF, 0xD9])
        let decoded: Result<Image, ImageDecodingError> = prefix.withUnsafeBytes { buffer in
            Result { () throws(ImageDecodingError) in try JPEGDecoder.decode(buffer, options: decodeOptions) }
        }
        let image = try decoded.get()
        scansShown = advanced.completeScans
        return image
    }
}
