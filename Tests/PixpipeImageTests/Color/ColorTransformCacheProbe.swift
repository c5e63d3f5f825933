@testable import PixpipeImage

/// The transform cache's counter, read through the package API.
enum ColorTransformCacheProbe {
    /// Transforms built so far from the profile `bytes`.
    static func built(from bytes: [UInt8]) -> Int { ColorTransformCache.transformsBuilt(fromProfile: bytes) }
}
