import Foundation

/// Makes thumbnails from image bytes of any format in the codec table, holding no more of the source than it
/// needs: each codec decodes at the least size its library offers.
///
/// JPEGs are decoded at the smallest of libjpeg-turbo's fast DCT scales (1/8, 2/8, 4/8, 8/8) that keeps at
/// least three times the target size, then resampled with the chosen filter (a progressive JPEG decoded at 1/8 or 2/8
/// reads only the scans that decode needs: ``ThumbnailOptions/decodesWholeSource``); non-interlaced PNGs stream their rows through the resampler
/// as libpng produces them, so peak memory does not grow with the source; interlaced PNGs are decoded
/// whole under the pixel limit. The EXIF orientation is applied after resizing (fewer pixels to move),
/// with the target read in upright pixels, so a 6-oriented 4000x3000 photo fit into 256 gives 192x256; an
/// AVIF clean aperture (`clap`) is cut before resizing, so the target is read in the cropped picture. A HEIC
/// whose own thumbnail image is at least the resized size (phones store one) is thumbnailed from that image,
/// without decoding the primary.
///
/// ```swift
/// let thumbnail = try Thumbnailer(.init(size: .box(256))).thumbnail(contentsOfFile: "photo.jpg")
/// let jpeg = try ThumbnailEncoder().encode(thumbnail)
/// ```
///
/// The result is in sRGB with no ICC profile by default (``ThumbnailOptions/colorConversion``), converted
/// after resizing; it keeps the rest of the source's metadata (EXIF with its orientation tag set to 1).
public struct Thumbnailer: Sendable {
    /// Size, mode, filter and limits.
    public var options: ThumbnailOptions

    /// A thumbnailer with `options`.
    public init(_ options: ThumbnailOptions = .init()) {
        self.options = options
    }

    /// The thumbnail of image bytes; the format is sniffed from the bytes.
    public func thumbnail(data: Data) throws(ImageProcessingError) -> Image {
        try data.withTypedBytes { (bytes) throws(ImageProcessingError) in try thumbnail(bytes: bytes) }
    }

    /// The thumbnail of the image file at `path`.
    ///
    /// PNG and JPEG files are read in small pieces as the decoder needs them, never whole, so peak memory
    /// does not include the compressed file; a progressive JPEG decoded at 1/8 is read whole once to drop the
    /// scans that decode does not show, and released before its coefficient buffer, which is larger.
    public func thumbnail(contentsOfFile path: String) throws(ImageProcessingError) -> Image {
        let file = try Self.decoding { () throws(ImageDecodingError) in
            try ThumbnailSourceFile(path: path, byteLimit: options.byteLimit)
        }
        guard let codec = file.codec else { throw .decoding(.unsupportedFormat(recognized: file.recognized)) }
        return try convertingColor(codec.thumbnail(.file(file), by: self))
    }

    /// The thumbnail of image bytes in a buffer the caller owns.
    public func thumbnail(bytes: UnsafeRawBufferPointer) throws(ImageProcessingError) -> Image {
        let codec = try Self.decoding { () throws(ImageDecodingError) in
            try DecodeOptions(byteLimit: options.byteLimit).checkBytes(bytes.count)
            return try ImageCodecs.decoder(for: bytes)
        }
        return try convertingColor(codec.thumbnail(.bytes(bytes), by: self))
    }

    /// The thumbnail of an image already decoded (its `metadata.orientation` and `cleanAperture` are honoured).
    public func thumbnail(of image: Image) throws(ImageProcessingError) -> Image {
        let plan = try Plan(
            width: image.width, height: image.height, orientation: image.metadata.orientation,
            cleanAperture: image.metadata.cleanAperture, format: nil, options)
        return try convertingColor(finish(image, plan: plan))
    }

    /// The DCT scale numerator (M of M/8) for a `width` x `height` JPEG to be resized to `target`.
    ///
    /// The smallest M whose decode is at least ``shrinkMargin`` times the target in both axes: DCT
    /// scaling is close to an area average, and leaving the last factor of three to the real filter keeps
    /// the result at 45 dB or more against a full decode (see the thumbnail quality tests).
    ///
    /// M is then rounded up to 1, 2, 4 or 8, the scales whose inverse DCTs libjpeg-turbo makes cheap (DC
    /// only, SIMD): its plain C 3/8, 5/8, 6/8 and 7/8 ones cost more than decoding at the next of those, a
    /// 768x512 photo at 6/8 more than at full size (docs/benchmarks.md, "Fast DCT scales"). The larger
    /// decode keeps more than the margin, never less.
    static func jpegScaleNumerator(width: Int, height: Int, targetWidth: Int, targetHeight: Int) -> Int {
        let wanted = DecodeOptions.JPEGScale.atLeast(
            width: withShrinkMargin(targetWidth), height: withShrinkMargin(targetHeight))
        let numerator = wanted.numerator(width: width, height: height)
        return fastScaleNumerators.first { $0 >= numerator } ?? 8
    }

    /// The least decoded side that keeps ``shrinkMargin`` times a target `side`.
    ///
    /// A target side is an exact size rounded, up to a pixel over it (171 rows for 512 / 3 = 170.7), so the
    /// margin is taken of the side less a pixel, plus one: 511 rows for 171, which a 1536x1024 photo's 4/8
    /// decode (768x512) has for a 256x171 thumbnail. Without it that photo would decode at full size.
    static func withShrinkMargin(_ side: Int) -> Int {
        (side - 1).multipliedReportingOverflow(by: shrinkMargin).partialValue + 1
    }

    /// The DCT scale numerators whose inverse DCTs are cheap in libjpeg-turbo.
    static let fastScaleNumerators = [1, 2, 4, 8]

    /// How many times the target size a reduced decode keeps, at least: JPEG's DCT scaling and libwebp's
    /// rescaler both leave the last factor of three to the thumbnail's filter.
    ///
    /// Three, not two: at exactly twice the target, Kodak photos decoded at 1/8 or 2/8 measured 40.1 dB
    /// against a full decode, and through libwebp's rescaler 40.0 dB; at three times, 46.1 and 46.4 dB
    /// (docs/benchmarks.md, "Fast DCT scales").
    static let shrinkMargin = 3

    /// The plan for a source whose header says `info`; checks the source limit.
    func plan(for info: ImageInfo) throws(ImageProcessingError) -> Plan {
        try Plan(
            width: info.width, height: info.height, orientation: info.metadata.orientation,
            cleanAperture: info.metadata.cleanAperture, format: info.format, options)
    }

    /// Options for a codec that can only decode at full size: the thumbnail's pixel limit and strictness.
    var fullDecodeOptions: DecodeOptions {
        DecodeOptions(pixelLimit: options.pixelLimit, byteLimit: nil, strictness: options.strictness)
    }

    /// Cuts `image` to its clean aperture, resizes it to the plan's stored size, turns it upright, and cuts
    /// the `.fill` crop.
    func finish(_ image: Image, plan: Plan) throws(ImageProcessingError) -> Image {
        try checkAllocation(width: plan.storedWidth, height: plan.storedHeight)
        // The clean aperture is in stored pixels: cut before resizing, as the plan's size assumes.
        let source = options.appliesOrientation ? image.applyingCleanAperture() : image
        var result: Image
        do {
            result = try source.resized(
                width: plan.storedWidth, height: plan.storedHeight, filter: options.filter,
                options: options.resizeOptions)
        } catch {
            throw .invalidThumbnailSize(options.size)
        }
        if options.appliesOrientation { result = result.applyingOrientation() }
        if let crop = plan.geometry.crop {
            do { result = try result.cropped(to: crop) } catch { throw .invalidThumbnailSize(options.size) }
        }
        return result
    }

    /// Runs a decoding step, wrapping its error.
    static func decoding<T>(_ body: () throws(ImageDecodingError) -> T) throws(ImageProcessingError) -> T {
        do { return try body() } catch { throw .decoding(error) }
    }

    /// Throws when a `width` x `height` buffer would go over the pixel limit.
    func checkAllocation(width: Int, height: Int) throws(ImageProcessingError) {
        do {
            try DecodeOptions(pixelLimit: options.pixelLimit).checkPixels(width: width, height: height)
        } catch {
            throw .decoding(error)
        }
    }
}

extension Thumbnailer {
    /// One source's geometry, in upright pixels, and the size to resize its stored pixels to.
    struct Plan {
        /// Where the upright output comes from.
        let geometry: ThumbnailGeometry
        /// The resize target before orientation: the upright size, swapped for orientations 5 to 8. It is
        /// the target of the clean aperture alone when the source has one (cut before resizing).
        let storedWidth: Int
        /// See ``storedWidth``.
        let storedHeight: Int

        /// The plan for a stored `width` x `height` source shown with `orientation`, and cut to
        /// `cleanAperture` first when there is one; checks the source limit against the stored size (the
        /// decode is of all of it).
        init(
            width: Int, height: Int, orientation: Orientation, cleanAperture: PixelRect? = nil, format: ImageFormat?,
            _ options: ThumbnailOptions
        ) throws(ImageProcessingError) {
            guard width > 0, height > 0 else {
                throw .decoding(.corrupt(format: format ?? .png, reason: "image has no pixels"))
            }
            if let limit = options.sourcePixelLimit {
                let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
                if overflow || pixels > limit { throw .sourceTooLarge(width: width, height: height, limit: limit) }
            }
            let shown =
                options.appliesOrientation
                ? ImageMetadata.shownSize(
                    width: width, height: height, orientation: orientation, cleanAperture: cleanAperture)
                : (width: width, height: height)
            let swaps = options.appliesOrientation && orientation.swapsDimensions
            geometry = try ThumbnailGeometry(sourceWidth: shown.width, sourceHeight: shown.height, options: options)
            storedWidth = swaps ? geometry.resizedHeight : geometry.resizedWidth
            storedHeight = swaps ? geometry.resizedWidth : geometry.resizedHeight
        }
    }
}

extension Thumbnailer {
    /// `thumbnail` converted as ``ThumbnailOptions/colorConversion`` says.
    ///
    /// The conversion runs on the resized pixels: resizing in the source's space and converting afterwards
    /// differs from the other order only by the curve's bend inside each filter's footprint, as any resize in
    /// gamma-encoded values does (and not at all with linear light). A profile Little CMS refuses (damaged,
    /// or not matching the pixels) does not fail the thumbnail: the pixels are kept, the profile dropped, and
    /// a benign warning says so, as a damaged ICC marker is treated when decoding.
    func convertingColor(_ thumbnail: Image) throws(ImageProcessingError) -> Image {
        guard let conversion = options.colorConversion else { return thumbnail }
        do {
            return try thumbnail.converted(toColorSpace: conversion.target, options: conversion.options)
        } catch {
            var kept = thumbnail
            kept.metadata.iccProfile = nil
            kept.metadata.warnings.append(SharedWarningTable.colorProfileIgnored.warning(error.description))
            return kept
        }
    }
}
