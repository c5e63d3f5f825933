internal import CLibWebP

/// libwebp's status codes as typed errors.
enum WebPStatus {
    /// The error for `status`, with `context` saying which step failed.
    static func error(_ status: VP8StatusCode, context: String) -> ImageDecodingError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: .truncated(format: .webp, reason: "\(context): the data ends early")
        case VP8_STATUS_UNSUPPORTED_FEATURE: .unsupportedFeature(format: .webp, feature: context)
        case VP8_STATUS_OUT_OF_MEMORY: .corrupt(format: .webp, reason: "\(context): out of memory")
        case VP8_STATUS_INVALID_PARAM: .corrupt(format: .webp, reason: "\(context): invalid parameter")
        default: .corrupt(format: .webp, reason: "\(context): invalid bitstream")
        }
    }
}
