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

    /// Verifies `body` by decoding it fully (strict options catch truncation), then processes it.
    static func make(
        from body: Data, url: URL, processing: DownloadProcessing, keepsOriginal: Bool, decodeOptions: DecodeOptions
    ) throws(DownloadError) -> ProcessedImage {
        guard let sniffed = ImageFormat.sniff(body) else { throw .image(.unsupportedFormat, url: url) }
        let image: Image
        do {
            image = try Image(data: body, options: decodeOptions)
        } catch {
            throw .image(error, url: url)
        }
        switch processing {
        case .none:
            return ProcessedImage(data: body, format: sniffed, width: image.width, height: image.height)
        case .convert(let encoding):
            return try encode(image, as: encoding, url: url, original: keepsOriginal ? (body, sniffed) : nil)
        case .thumbnail(let options, let encoding):
            let thumbnail: Image
            do {
                thumbnail = try Thumbnailer(options).thumbnail(of: image)
            } catch {
                throw .thumbnail(error, url: url)
            }
            return try encode(thumbnail, as: encoding, url: url, original: keepsOriginal ? (body, sniffed) : nil)
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
