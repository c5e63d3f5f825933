import Foundation

/// Stored as JSON by disk caches: the headers as `[name, value]` pairs in order (so repeated fields and
/// their order survive), the times as seconds since 1970.
extension HTTPCacheMetadata: Codable {
    private enum CodingKeys: String, CodingKey {
        case statusCode = "status"
        case headers
        case requestTime = "requested"
        case responseTime = "received"
    }

    /// Decodes the metadata a disk cache stored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let pairs = try container.decode([[String]].self, forKey: .headers)
        var headers = HTTPHeaders()
        for pair in pairs {
            guard pair.count == 2 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .headers, in: container, debugDescription: "a header is not a [name, value] pair")
            }
            headers.add(name: pair[0], value: pair[1])
        }
        self.init(
            statusCode: try container.decode(Int.self, forKey: .statusCode), headers: headers,
            requestTime: Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .requestTime)),
            responseTime: Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .responseTime)))
    }

    /// Encodes the metadata for a disk cache.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(statusCode, forKey: .statusCode)
        try container.encode(headers.map { [$0.name, $0.value] }, forKey: .headers)
        try container.encode(requestTime.timeIntervalSince1970, forKey: .requestTime)
        try container.encode(responseTime.timeIntervalSince1970, forKey: .responseTime)
    }
}
