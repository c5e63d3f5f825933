// STUB: replaced by the JPEG codec work.
enum JPEGDecoder {
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodingError) -> Image {
        throw .unsupportedFeature(format: .jpeg, feature: "not implemented yet")
    }

    static func info(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageInfo {
        throw .unsupportedFeature(format: .jpeg, feature: "not implemented yet")
    }
}
