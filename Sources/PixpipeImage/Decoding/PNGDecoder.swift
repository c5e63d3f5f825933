// STUB: replaced by the PNG codec work.
enum PNGDecoder {
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        throw .unsupportedFeature(format: .png, feature: "not implemented yet")
    }

    static func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo {
        throw .unsupportedFeature(format: .png, feature: "not implemented yet")
    }
}
