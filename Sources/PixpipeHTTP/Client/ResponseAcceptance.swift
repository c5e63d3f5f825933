import Foundation

/// What a request accepts as a response before converting it: the status codes and, optionally, the media types.
struct ResponseAcceptance: Sendable {
    /// The status codes that count as success.
    var statusCodes: Set<Int>
    /// Media type patterns (`image/*`) the Content-Type must match, or `nil` to accept any.
    var contentTypes: [String]?

    /// The response when its status and content type are acceptable, else the error that says why not.
    func check(_ response: TransportResponse) -> Result<TransportResponse, FetchError> {
        let metadata = response.metadata
        guard statusCodes.contains(metadata.statusCode) else {
            return .failure(.httpStatus(code: metadata.statusCode, url: metadata.url, body: response.body))
        }
        if let contentTypes {
            let matches = metadata.contentType.map { type in
                contentTypes.contains { MediaType.matches(type, pattern: $0) }
            }
            guard matches ?? false else {
                return .failure(
                    .unacceptableContentType(metadata.contentType, accepted: contentTypes, url: metadata.url))
            }
        }
        return .success(response)
    }
}
