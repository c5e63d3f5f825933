/// The codec table: every format the package knows, in sniffing order. Adding a format adds one entry here.
enum ImageCodecs {
    /// Every codec.
    static let all: [any ImageCodec] = [
        PNGCodec(),
        JPEGCodec(),
        WebPCodec(),
        GIFCodec(),
        AVIFCodec(),
        TIFFCodec(),
        NetpbmCodec(variant: .pnm),
        NetpbmCodec(variant: .pam),
    ]

    /// How many leading bytes ``sniff(_:)`` reads: enough for every codec's magic bytes (an ISO-BMFF
    /// `ftyp` box with a few compatible brands is the longest).
    static let signatureLength = 64

    /// The codec of `format`, or `nil` for a format outside the table.
    static func codec(for format: ImageFormat) -> (any ImageCodec)? {
        all.first { $0.format == format }
    }

    /// The decoding codec whose magic bytes start `bytes`, or `nil`.
    static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> (any ImageCodec)? {
        let prefix = Array(bytes.prefix(signatureLength))
        return all.first { $0.canDecode && $0.matches(prefix) }
    }

    /// The decoding codec for `bytes`, or ``ImageDecodingError/unsupportedFormat``.
    static func decoder(for bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> any ImageCodec {
        guard let codec = sniff(bytes) else { throw .unsupportedFormat }
        return codec
    }
}
