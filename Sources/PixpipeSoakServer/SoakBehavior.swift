/// How the soak server treats one URL, chosen once per URL from a hash of its index and the seed.
///
/// Every behaviour but ``notAnImage`` ends in the image after at most two failed attempts, so with a
/// retry budget of three attempts "every URL the server can serve" is well defined: all but the non-images.
enum SoakBehavior: Sendable, Hashable {
    /// Served at once.
    case normal
    /// The first `failures` attempts get `status` (500 or 503) with an empty body, then the image.
    case failing(failures: Int, status: Int)
    /// The first attempt's connection is reset (TCP RST) before any answer, then the image.
    case reset
    /// The first attempt declares the full `Content-Length` but sends half the body and closes.
    case truncatedTransfer
    /// The first attempt sends half the image as a complete 200 response, so only decoding can tell.
    case truncatedImage
    /// Every attempt trickles the image in four pieces, 50 ms apart.
    case slow
    /// Every attempt gets a 200 HTML page: never servable, so it must end `failed` as `not-an-image`.
    case notAnImage

    /// The behaviour of URL number `index`: 20% failing, 5% reset, 5% truncated (half in transfer, half as
    /// a short image), 5% slow, 2% not an image, the rest normal.
    init(index: Int, seed: UInt64) {
        let hash = Self.mix(UInt64(truncatingIfNeeded: index) &+ seed &* 0x9E37_79B9_7F4A_7C15)
        let bucket = Int(hash % 1000)
        switch bucket {
        case 0..<200: self = .failing(failures: 1 + Int((hash >> 20) % 2), status: (hash >> 24) % 2 == 0 ? 500 : 503)
        case 200..<250: self = .reset
        case 250..<275: self = .truncatedTransfer
        case 275..<300: self = .truncatedImage
        case 300..<350: self = .slow
        case 350..<370: self = .notAnImage
        default: self = .normal
        }
    }

    /// Whether a client with a budget of at least three attempts per run can get the image.
    var isServable: Bool { self != .notAnImage }

    /// A short stable name for the statistics.
    var name: String {
        switch self {
        case .normal: "normal"
        case .failing(let failures, let status): "fail-\(failures)x\(status)"
        case .reset: "reset"
        case .truncatedTransfer: "truncated-transfer"
        case .truncatedImage: "truncated-image"
        case .slow: "slow"
        case .notAnImage: "not-an-image"
        }
    }

    /// SplitMix64's finalizer: a well-spread 64-bit hash, the same on every machine and run.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
