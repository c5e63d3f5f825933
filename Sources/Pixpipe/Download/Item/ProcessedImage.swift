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
    /// The benign warnings of the decode (pixel-losing ones fail it in strict mode), for the manifest.
    var warnings: [DecodeWarning] = []
    /// The SHA-256 of ``data``: streamed during the transfer for a body stored as it came, else hashed here.
    var sha256: SHA256.Digest

    /// Verifies `body` by decoding it (strict options catch truncation and damage), then processes it.
    ///
    /// Each kind of processing decodes once, at the least size that still reads every byte: a stored original
    /// is verified by its codec's cheapest complete read (a 1/8 JPEG decode still entropy-decodes every
    /// coefficient, so truncation and damage are seen, but skips most of the inverse DCT); the first processor starts from
    /// the bytes (a thumbnail decodes at the reduced size it needs); only a conversion without processors
    /// decodes at full size.
    ///
    /// `contentType`, the response's, only names what a body that is not an image is (an HTML page).
    ///
    /// `bodyDigest`, when given, saw the body arrive: a body stored as it came takes its digest from it
    /// instead of a second pass over the bytes.
    static func make(
        from body: Data, url: URL, processing: [any ImageProcessing], outputEncoding: ImageEncoding?,
        alphaOutputEncoding: ImageEncoding? = nil,
        animation: (step: ImageProcessors.Thumbnail, encoding: ImageEncoding)? = nil,
        keepsOriginal: Bool, decodeOptions: DecodeOptions,
        verifiesByDecoding: Bool = true, bodyDigest: BodyDigester? = nil, contentType: String? = nil
    ) throws(DownloadError) -> ProcessedImage {
        guard let sniffed = ImageFormat.sniff(body) else {
            let recognized = RecognizedContent(body: body, contentType: contentType)
            throw .load(.decoding(.unsupportedFormat(recognized: recognized), url: url))
        }
        guard !processing.isEmpty || outputEncoding != nil else {
            let info =
                verifiesByDecoding
                ? try verify(body, url: url, options: decodeOptions)
                : try header(of: body, url: url, options: decodeOptions)
            return ProcessedImage(
                data: body, format: sniffed, width: info.width, height: info.height, warnings: info.metadata.warnings,
                sha256: bodyDigest?.digest(ofBodyOf: body) ?? SHA256.hash(body))
        }
        let original = keepsOriginal ? (data: body, format: sniffed) : nil
        if let animation,
            let frames = (try? Image.info(data: body, options: DecodeOptions(pixelLimit: nil)))?.animation,
            frames.frameCount > 1
        {
            return try animatedThumbnail(
                of: body, url: url, step: animation.step, encoding: animation.encoding, decodeOptions: decodeOptions,
                original: original)
        }
        let image: Image
        // A kept original is only as proven as the decode that made its thumbnail: that decode reads it all.
        let steps = keepsOriginal && verifiesByDecoding ? processing.map(decodingWholeSource) : processing
        do {
            image = try ImageProcessors.Composition(steps).process(data: body, options: decodeOptions)
        } catch {
            throw DownloadError(error, url: url)
        }
        var encoding = outputEncoding ?? defaultEncoding(for: sniffed)
        // The header's word on alpha, as the `thumbnail` command reads it, so both pick the same format.
        if let alphaOutputEncoding,
            (try? Image.info(data: body, options: DecodeOptions(pixelLimit: nil)))?.pixelFormat.layout.hasAlpha == true
        {
            encoding = alphaOutputEncoding
        }
        var processed = try encode(image, as: encoding, url: url, original: original)
        processed.warnings = image.metadata.warnings
        return processed
    }

    /// `step` set to decode every byte of its source, for a thumbnail step (``ThumbnailOptions/decodesWholeSource``).
    private static func decodingWholeSource(_ step: any ImageProcessing) -> any ImageProcessing {
        guard var thumbnail = step as? ImageProcessors.Thumbnail else { return step }
        thumbnail.options.decodesWholeSource = true
        return thumbnail
    }

    /// The encoding of processed images when none is set: the source's format with its standard settings,
    /// or PNG for a source format the package cannot write (GIF).
    private static func defaultEncoding(for format: ImageFormat) -> ImageEncoding {
        ImageEncoding.standard(for: format) ?? .png
    }

    /// Proves `body` complete with the codec's cheapest full read (``Image/verify(data:options:)``) and
    /// returns its stored size.
    private static func verify(
        _ body: Data, url: URL, options: DecodeOptions
    ) throws(DownloadError) -> ImageInfo {
        do throws(ImageDecodingError) {
            return try Image.verify(data: body, options: options)
        } catch {
            throw .load(.decoding(error, url: url))
        }
    }

    /// The stored size from the header alone (the pixel limit applies), for ``DownloadOptions/verifiesByDecoding`` off.
    private static func header(
        of body: Data, url: URL, options: DecodeOptions
    ) throws(DownloadError) -> ImageInfo {
        do throws(ImageDecodingError) {
            let info = try Image.info(data: body, options: options)
            try options.checkPixels(width: info.width, height: info.height)
            return info
        } catch {
            throw .load(.decoding(error, url: url))
        }
    }

    /// Every frame of the animation in `body` thumbnailed by `step` and stored as one animation in `encoding`.
    private static func animatedThumbnail(
        of body: Data, url: URL, step: ImageProcessors.Thumbnail, encoding: ImageEncoding, decodeOptions: DecodeOptions,
        original: (data: Data, format: ImageFormat)?
    ) throws(DownloadError) -> ProcessedImage {
        var options = step.options
        options.strictness = decodeOptions.strictness
        let thumbnailer = AnimationThumbnailer(
            options: options, encoding: encoding, frameLimit: decodeOptions.frameLimit)
        let thumbnail: AnimationThumbnailer.Thumbnail
        do {
            thumbnail = try thumbnailer.thumbnail(data: body)
        } catch let error as ImageDecodingError {
            throw .load(.decoding(error, url: url))
        } catch let error as ImageProcessingError {
            throw .load(ImageLoadError(error, url: url))
        } catch let error as ImageEncodingError {
            throw .encoding(error, url: url)
        } catch {
            // The thumbnailer throws only the three stage errors above (its finishing step is the identity here).
            throw .encoding(.libraryFailure(format: encoding.format, reason: "\(error)"), url: url)
        }
        return ProcessedImage(
            data: thumbnail.data, format: encoding.format, width: thumbnail.width, height: thumbnail.height,
            original: original, warnings: thumbnail.warnings, sha256: SHA256.hash(thumbnail.data))
    }

    private static func encode(
        _ image: Image, as encoding: ImageEncoding, url: URL, original: (data: Data, format: ImageFormat)?
    ) throws(DownloadError) -> ProcessedImage {
        do {
            let data = try image.encoded(as: encoding)
            return ProcessedImage(
                data: data, format: encoding.format, width: image.width, height: image.height, original: original,
                sha256: SHA256.hash(data))
        } catch {
            throw .encoding(error, url: url)
        }
    }
}
