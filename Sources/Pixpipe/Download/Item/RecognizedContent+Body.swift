import Foundation
import PixpipeImage

extension RecognizedContent {
    /// What a response body that no codec decodes is: what its bytes say, or an HTML page when the bytes say
    /// only text or nothing and `contentType` is `text/html` (an error page without a doctype).
    init(body: Data, contentType: String?) {
        self.init(body)
        let mediaType = contentType?.split(separator: ";", maxSplits: 1).first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        if self == .text || self == .unknown, mediaType == "text/html" || mediaType == "application/xhtml+xml" {
            self = .htmlPage
        }
    }
}
