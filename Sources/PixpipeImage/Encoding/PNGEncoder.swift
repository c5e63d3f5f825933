import Foundation

// STUB: replaced by the PNG codec work.
enum PNGEncoder {
    static func encode(_ image: Image, options: PNGEncodeOptions) throws(ImageEncodingError) -> Data {
        throw .libraryFailure(format: .png, reason: "not implemented yet")
    }
}
