import Foundation

/// A verified body after processing: the bytes to store and what they hold.
struct ProcessedImage: Sendable {
    /// The bytes to store under the item's name.
    var data: Data
    /// Their format.
    var format: ImageFormat
    /// The stored image's width.
    var width: Int
    /// The stored image's height.
    var height: Int
    /// The original body and its format, when it is kept beside a processed file.
    var original: (data: Data, format: ImageFormat)?

    /// Verifies `body` by decoding it (strict options catch truncation and damage), then processes it.
    ///
    /// Each kind of processing decodes once, at the least size that still reads every byte: a stored original
    /// is verified with a 1/8 JPEG decode (libjpeg still entropy-decodes every coefficient, so truncation and
    /// damage are seen, but skips most of the inverse DCT and colour work); the first processor starts from
    /// the bytes (a thumbnail decodes at the reduced size it needs); only a conversion without processors
    /// decodes at full size.
    static func make(
        from body: Data, url: URL, processing: [any ImageProcessing], outputEncoding: ImageEncoding?,
        keepsOriginal: Bool, decodeOptions: DecodeOptions, verifiesByDecoding: Bool = true
    ) throws(DownloadError) -> ProcessedImage {
        guard let sniffed = ImageFormat.sniff(body) else { throw .image(.unsupportedFormat, url: url) }
        guard !processing.isEmpty || outputEncoding != nil else {
            let (width, height) =
                verifiesByDecoding
                ? try verify(body, format: sniffed, url: url, options: decodeOptions)
                : try header(of: body, url: url, options: decodeOptions)
            return ProcessedImage(data: body, format: sniffed, width: width, height: height)
        }
        let original = keepsOriginal ? (data: body, format: sniffed) : nil
        let image: Image
        do {
            image = try ImageProcessors.Composition(processing).process(data: body, options: decodeOptions)
        } catch {
            throw DownloadError(error, url: url)
        }
        return try encode(image, as: outputEncoding ?? defaultEncoding(for: sniffed), url: url, original: original)
    }

    /// The encoding of processed images when none is set: the source's format with default options.
    private static func defaultEncoding(for format: ImageFormat) -> ImageEncoding {
        switch format {
        case .png: .png
        case .jpeg: .jpeg
        }
    }

    /// Decodes `body` fully enough to prove it complete and returns its stored size.
    private static func verify(
        _ body: Data, format: ImageFormat, url: URL, options: DecodeOptions
    ) throws(DownloadError) -> (width: Int, height: Int) {
        guard format == .jpeg else {
            let image = try decode(body, url: url, options: options)
            return (image.width, image.height)
        }
        // The pixel limit keeps its meaning (the image's full size), though the check decodes far fewer.
        let size = try header(of: body, url: url, options: options)
        var reduced = options
        reduced.jpegScale = .eighths(1)
        _ = try decode(body, url: url, options: reduced)
        return size
    }

    /// The stored size from the header alone (the pixel limit applies), for ``DownloadOptions/verifiesByDecoding`` off.
    private static func header(
        of body: Data, url: URL, options: DecodeOptions
    ) throws(DownloadError) -> (width: Int, height: Int) {
        do throws(ImageDecodingError) {
            let info = try Image.info(data: body, options: options)
            try options.checkPixels(width: info.width, height: info.height)
            return (info.width, info.height)
        } catch {
            throw .image(error, url: url)
        }
    }

    private static func decode(_ body: Data, url: URL, options: DecodeOptions) throws(DownloadError) -> Image {
        do {
            return try Image(data: body, options: options)
        } catch {
            throw .image(error, url: url)
        }
    }

    private static func encode(
        _ image: Image, as encoding: ImageEncoding, url: URL, original: (data: Data, format: ImageFormat)?
    ) throws(DownloadError) -> ProcessedImage {
        do {
            let data = try image.encoded(as: encoding)
            return ProcessedImage(
                data: data, format: encoding.format, width: image.width, height: image.height, original: original)
        } catch {
            throw .encoding(error, url: url)
        }
    }
}
