import Foundation

/// Makes thumbnails from PNG or JPEG bytes, holding no more of the source than it needs.
///
/// JPEGs are decoded at the smallest DCT scale (1/8 to 8/8) that keeps at least twice the target size,
/// then resampled with the chosen filter; non-interlaced PNGs stream their rows through the resampler
/// as libpng produces them, so peak memory does not grow with the source; interlaced PNGs are decoded
/// whole under the pixel limit. The EXIF orientation is applied after resizing (fewer pixels to move),
/// with the target read in upright pixels, so a 6-oriented 4000x3000 photo fit into 256 gives 192x256.
///
/// ```swift
/// let thumbnail = try Thumbnailer(.init(size: .box(256))).thumbnail(contentsOfFile: "photo.jpg")
/// let jpeg = try ThumbnailEncoder().encode(thumbnail)
/// ```
///
/// The result keeps the source's metadata (ICC profile, EXIF with its orientation tag set to 1).
public struct Thumbnailer: Sendable {
    /// Size, mode, filter and limits.
    public var options: ThumbnailOptions

    /// A thumbnailer with `options`.
    public init(_ options: ThumbnailOptions = .init()) {
        self.options = options
    }

    /// The thumbnail of PNG or JPEG bytes; the format is sniffed from the bytes.
    public func thumbnail(data: Data) throws(ThumbnailError) -> Image {
        let result: Result<Image, ThumbnailError> = data.withUnsafeBytes { bytes in
            do throws(ThumbnailError) { return .success(try thumbnail(bytes: bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The thumbnail of the PNG or JPEG file at `path`.
    ///
    /// The file is read in small pieces as the decoder needs them, never whole, so peak memory does not
    /// include the compressed file.
    public func thumbnail(contentsOfFile path: String) throws(ThumbnailError) -> Image {
        let file = try decoding { () throws(ImageDecodingError) in
            try ThumbnailSourceFile(path: path, byteLimit: options.byteLimit)
        }
        switch file.format {
        case .jpeg:
            let reader = try decoding { () throws(ImageDecodingError) in
                try JPEGReader(fileDescriptor: file.descriptor, pixelLimit: options.pixelLimit)
            }
            return try jpegThumbnail(reader)
        case .png:
            let (reader, header) = try decoding { () throws(ImageDecodingError) in
                let reader = try PNGReader(fileDescriptor: file.descriptor)
                return (reader, try reader.readHeader())
            }
            return try pngThumbnail(reader, header: header)
        case nil:
            throw .decoding(.unsupportedFormat)
        }
    }

    /// The thumbnail of PNG or JPEG bytes in a buffer the caller owns.
    public func thumbnail(bytes: UnsafeRawBufferPointer) throws(ThumbnailError) -> Image {
        if let limit = options.byteLimit, bytes.count > limit {
            throw .decoding(.inputTooLarge(bytes: bytes.count, limit: limit))
        }
        switch ImageFormat.sniff(bytes) {
        case .jpeg:
            let reader = try decoding { () throws(ImageDecodingError) in
                try JPEGReader(bytes: bytes, pixelLimit: options.pixelLimit)
            }
            return try jpegThumbnail(reader)
        case .png:
            let (reader, header) = try decoding { () throws(ImageDecodingError) in
                let reader = try PNGReader(bytes: bytes)
                return (reader, try reader.readHeader())
            }
            return try pngThumbnail(reader, header: header)
        case nil:
            throw .decoding(.unsupportedFormat)
        }
    }

    /// The thumbnail of an image already decoded (its `metadata.orientation` is honoured).
    public func thumbnail(of image: Image) throws(ThumbnailError) -> Image {
        let plan = try Plan(
            width: image.width, height: image.height, orientation: image.metadata.orientation, format: nil, options)
        return try finish(image, plan: plan)
    }

    /// The DCT scale numerator (M of M/8) for a `width` x `height` JPEG to be resized to `target`.
    ///
    /// The smallest M whose decode is at least ``shrinkMargin`` times the target in both axes: DCT
    /// scaling is close to an area average, and leaving the last factor of two to the real filter keeps
    /// the result within a fraction of a decibel of a full decode (see the thumbnail quality tests).
    static func jpegScaleNumerator(width: Int, height: Int, targetWidth: Int, targetHeight: Int) -> Int {
        let wanted = DecodeOptions.JPEGScale.atLeast(
            width: targetWidth.multipliedReportingOverflow(by: shrinkMargin).partialValue,
            height: targetHeight.multipliedReportingOverflow(by: shrinkMargin).partialValue)
        return wanted.numerator(width: width, height: height)
    }

    /// How many times the target size a reduced JPEG decode keeps, at least.
    static let shrinkMargin = 2

    /// The thumbnail from a JPEG reader that has read the header.
    private func jpegThumbnail(_ reader: JPEGReader) throws(ThumbnailError) -> Image {
        let info = try decoding { () throws(ImageDecodingError) in try JPEGDecoder.info(reader) }
        let plan = try Plan(
            width: info.width, height: info.height, orientation: info.metadata.orientation, format: .jpeg, options)
        let numerator = Self.jpegScaleNumerator(
            width: info.width, height: info.height, targetWidth: plan.storedWidth, targetHeight: plan.storedHeight)
        let decodeOptions = DecodeOptions(
            pixelLimit: options.pixelLimit, byteLimit: nil, strictness: options.strictness,
            jpegScale: .eighths(numerator))
        let image = try decoding { () throws(ImageDecodingError) in
            try JPEGDecoder.decode(reader, options: decodeOptions)
        }
        return try finish(image, plan: plan)
    }

    /// The thumbnail from a PNG reader that has read the header; an interlaced image is decoded whole.
    private func pngThumbnail(_ reader: PNGReader, header: PNGReader.Header) throws(ThumbnailError) -> Image {
        var early = ImageMetadata()
        header.chunks.apply(to: &early)
        let plan = try Plan(
            width: header.width, height: header.height, orientation: early.orientation, format: .png, options)
        if header.isInterlaced {
            // Adam7 rows arrive in seven passes, so the picture only exists once all of it is decoded.
            let decodeOptions = DecodeOptions(
                pixelLimit: options.pixelLimit, byteLimit: nil, strictness: options.strictness)
            let image = try decoding { () throws(ImageDecodingError) in
                try PNGDecoder.decode(reader, header: header, options: decodeOptions)
            }
            return try finish(image, plan: plan)
        }
        try checkAllocation(width: plan.storedWidth, height: plan.storedHeight)
        let resized = try decoding { () throws(ImageDecodingError) in
            try PNGStreamingResizer(reader: reader, header: header, options: options)
                .resize(toWidth: plan.storedWidth, height: plan.storedHeight)
        }
        // A late eXIf chunk may bring an orientation the plan did not know; the small result is resized again.
        let late = try Plan(
            width: header.width, height: header.height, orientation: resized.metadata.orientation, format: .png,
            options)
        return try finish(resized, plan: late)
    }

    /// Resizes `image` to the plan's stored size, turns it upright, and cuts the `.fill` crop.
    private func finish(_ image: Image, plan: Plan) throws(ThumbnailError) -> Image {
        try checkAllocation(width: plan.storedWidth, height: plan.storedHeight)
        var result: Image
        do {
            result = try image.resized(
                width: plan.storedWidth, height: plan.storedHeight, filter: options.filter,
                options: options.resizeOptions)
        } catch {
            throw .invalidSize(options.size)
        }
        if options.appliesOrientation { result = result.applyingOrientation() }
        if let crop = plan.geometry.crop {
            do { result = try result.cropped(to: crop) } catch { throw .invalidSize(options.size) }
        }
        return result
    }

    /// Runs a decoding step, wrapping its error.
    private func decoding<T>(_ body: () throws(ImageDecodingError) -> T) throws(ThumbnailError) -> T {
        do { return try body() } catch { throw .decoding(error) }
    }

    private func checkAllocation(width: Int, height: Int) throws(ThumbnailError) {
        do {
            try DecodeOptions(pixelLimit: options.pixelLimit).checkPixels(width: width, height: height)
        } catch {
            throw .decoding(error)
        }
    }
}
