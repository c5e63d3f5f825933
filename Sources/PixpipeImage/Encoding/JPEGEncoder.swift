import Foundation

// STUB: replaced by the JPEG codec work.
enum JPEGEncoder {
    static func encode(_ image: Image, options: JPEGEncodeOptions) throws(ImageEncodingError) -> Data {
        throw .libraryFailure(format: .jpeg, reason: "not implemented yet")
    }
}
