import Foundation

extension ImageFormat {
    /// Tagged Image File Format (classic and BigTIFF, one or more pages).
    public static let tiff = ImageFormat(rawValue: "tiff")
}

/// TIFF through libtiff 4.5, loaded on first use: strips and tiles, every compression libtiff reads,
/// both byte orders, BigTIFF, planar separate, the photometrics of ``TIFFPageLayout``, associated and
/// unassociated alpha (decoded straight), ICC, XMP, Orientation and resolution; several pages.
///
/// Pages are top-level images (``ImageInfo/imageCount``, ``ImageInfo/pages``), each of its own size:
/// a decode gives the first page, ``AnimationReader`` gives every page as a frame (the canvas is the first
/// page's size, and each frame's image has its own page's size). The chain of directories is walked
/// without libtiff, at most ``DecodeOptions/frameLimit`` + 1 steps, and a loop ends it (see
/// ``TIFFStructure``). Thumbnails read one strip or one row of tiles at a time into the resampler.
/// Strictness: ``TIFFWarningTable``.
struct TIFFCodec: ImageCodec {
    var format: ImageFormat { .tiff }
    var fileExtensions: [String] { ["tif", "tiff"] }
    var mediaTypes: [String] { ["image/tiff"] }
    var warningRules: [WarningRule] { TIFFWarningTable.rows }
    var writes16Bit: Bool { true }
    var canEncode: Bool { true }
    var canEncodeAnimation: Bool { true }

    func matches(_ prefix: [UInt8]) -> Bool { TIFFStructure.hasSignature(prefix) }

    func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo {
        let structure = try Self.structure(bytes, frameLimit: DecodeOptions.defaultFrameLimit)
        let handle = try TIFFHandle(bytes: bytes, pixelLimit: nil)
        let page = handle.page
        let first = try? TIFFPageLayout(handle: handle, keeps16Bit: true)
        var warnings = structure.warnings + (first?.warnings ?? [])
        warnings += handle.takeWarnings()
        let pixelFormat = first?.output ?? Self.pixelFormat(of: structure.pages.first ?? .init())
        var pages: [PageInfo] = []
        if structure.pages.count > 1 {
            pages = structure.pages.enumerated().map { index, page in
                PageInfo(
                    width: page.width, height: page.height,
                    pixelFormat: index == 0 ? pixelFormat : Self.pixelFormat(of: page))
            }
        }
        return ImageInfo(
            format: .tiff, width: Int(page.width), height: Int(page.height), pixelFormat: pixelFormat,
            metadata: TIFFMetadata.metadata(of: handle, warnings: warnings), imageCount: max(1, structure.pages.count),
            pages: pages)
    }

    func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        let handle = try TIFFHandle(bytes: bytes, pixelLimit: options.pixelLimit)
        return try TIFFDecoder.decode(handle, page: 0, options: options)
    }

    /// Decodes every page (within the frame and animation limits), so damage in any page is found.
    func verify(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> ImageInfo {
        let structure = try Self.structure(bytes, frameLimit: options.frameLimit)
        try structure.check(options)
        try options.enforce(structure.warnings, format: .tiff)
        let handle = try TIFFHandle(bytes: bytes, pixelLimit: options.pixelLimit)
        for index in structure.pages.indices { _ = try TIFFDecoder.decode(handle, page: index, options: options) }
        return try info(bytes)
    }

    func rowSource(path: String, options: DecodeOptions) throws(ImageDecodingError) -> (any RowSource)? {
        try TIFFRowSource.open(path: path, options: options)
    }

    func frameDecoder(_ data: Data, options: DecodeOptions) throws(ImageDecodingError) -> any FrameDecoder {
        try TIFFFrameDecoder(data: data, options: options)
    }

    /// A file is mapped rather than read whole, and the strips already decoded are dropped from memory, so
    /// a 200 MB TIFF's thumbnail does not hold 200 MB.
    func thumbnail(_ source: ThumbnailSource, by thumbnailer: Thumbnailer) throws(ImageProcessingError) -> Image {
        switch source {
        case .bytes(let bytes):
            return try TIFFStreamingResizer.thumbnail(bytes, by: thumbnailer)
        case .file(let file):
            let mapped = try file.withMapping { (bytes) throws(ImageProcessingError) in
                try TIFFStreamingResizer.thumbnail(bytes, isFileMapping: true, by: thumbnailer)
            }
            if let mapped { return mapped }
            return try source.withBytes { (bytes) throws(ImageProcessingError) in
                try TIFFStreamingResizer.thumbnail(bytes, by: thumbnailer)
            }
        }
    }

    func encode(_ image: Image, options: any ImageEncodeOptions) throws(ImageEncodingError) -> Data {
        try TIFFEncoder.encode([image], options: self.options(options, as: TIFFEncodeOptions.self))
    }

    /// Each frame becomes a page; TIFF has no timing, so durations and the loop count are not written.
    func encodeAnimation(
        _ frames: [AnimationFrame], loopCount: Int, options: any ImageEncodeOptions
    ) throws(ImageEncodingError) -> Data {
        try TIFFEncoder.encode(frames.map(\.image), options: self.options(options, as: TIFFEncodeOptions.self))
    }

    func standardEncoding(_ settings: StandardEncodeSettings) -> ImageEncoding? {
        .tiff(TIFFEncodeOptions(includesICCProfile: settings.keepsMetadata, includesXMP: settings.keepsMetadata))
    }

    /// The chain of directories of `bytes`, walked at most `frameLimit` + 1 steps.
    static func structure(_ bytes: UnsafeRawBufferPointer, frameLimit: Int?) throws(ImageDecodingError)
        -> TIFFChain
    {
        let limit = frameLimit ?? Int.max - 1
        guard let structure = TIFFStructure(bytes, limit: limit) else {
            throw .truncated(format: .tiff, reason: "the TIFF header is cut short")
        }
        if structure.stop == .overLimit { throw .tooManyFrames(count: structure.pages.count, limit: limit) }
        guard !structure.pages.isEmpty else {
            throw TIFFWarningTable.openError(message: "the first directory is not in the file", bytes: bytes)
        }
        return TIFFChain(pages: structure.pages, stop: structure.stop)
    }

    /// The pixel format a default decode gives a page described only by its directory's summary.
    static func pixelFormat(of page: TIFFStructure.Page) -> PixelFormat {
        let deep = page.bitsPerSample == 16
        switch page.photometric {
        case 0, 1:
            return PixelFormat(layout: page.samplesPerPixel > 1 ? .grayAlpha : .gray, bitsPerSample: deep ? 16 : 8)
        case 2:
            return PixelFormat(layout: page.samplesPerPixel > 3 ? .rgba : .rgb, bitsPerSample: deep ? 16 : 8)
        default:
            return .rgb8
        }
    }
}

/// A walked chain of directories: the pages, and the warning its end brings.
struct TIFFChain {
    /// Every page's summary, in chain order.
    let pages: [TIFFStructure.Page]
    /// Why the walk stopped.
    let stop: TIFFStructure.Stop

    /// The warnings of the chain's end: a loop (benign) or a directory cut short (truncated).
    var warnings: [DecodeWarning] {
        switch stop {
        case .loop(let offset):
            [
                TIFFWarningTable.directoryLoop.warning(
                    "the directory after page \(pages.count - 1) is at \(offset), read before")
            ]
        case .cut(let offset):
            [
                TIFFWarningTable.directoryCut.warning(
                    "the directory at \(offset) is not whole; pages from \(pages.count) on are missing")
            ]
        case .end, .overLimit: []
        }
    }

    /// Checks the page count against the frame limit and every page's pixels against the pixel limit and,
    /// together, the animation pixel limit.
    func check(_ options: DecodeOptions) throws(ImageDecodingError) {
        if let limit = options.frameLimit, pages.count > limit {
            throw .tooManyFrames(count: pages.count, limit: limit)
        }
        var total = 0
        for page in pages {
            try options.checkPixels(width: page.width, height: page.height)
            let (pixels, overflow) = page.width.multipliedReportingOverflow(by: page.height)
            let (sum, overflowSum) = total.addingReportingOverflow(pixels)
            total = overflow || overflowSum ? Int.max : sum
        }
        if let limit = options.animationPixelLimit, total > limit, let first = pages.first {
            throw .animationTooLarge(width: first.width, height: first.height, frames: pages.count, limit: limit)
        }
    }
}
