/// The one place that decides which ISO-BMFF image codec takes a file, from its `ftyp` brands.
///
/// AVIF and HEIF share the container: the major brand and the compatible brands are read together, and an
/// AV1 brand (`avif`, `avis`) wins, so an AVIF that also lists `mif1` goes to AVIF and a HEIC to HEIF.
enum ISOBMFFBrands {
    /// The container codecs the brands can name.
    enum Family {
        /// AV1 images: ``ImageFormat/avif``.
        case avif
        /// HEVC and other HEIF images: ``ImageFormat/heif``.
        case heif
    }

    /// Brands that make a file AVIF.
    static let avifBrands: Set<String> = ["avif", "avis"]
    /// Brands that make a file HEIF when no AVIF brand is present.
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]

    /// The major brand and the compatible brands of the `ftyp` box `prefix` starts with (as far as the
    /// prefix holds them), or an empty list when it starts with none.
    static func brands(_ prefix: [UInt8]) -> [String] {
        guard prefix.count >= 12, prefix[4...7].elementsEqual("ftyp".utf8) else { return [] }
        let size = (0..<4).reduce(0) { $0 << 8 | Int(prefix[$1]) }
        guard size >= 16 else { return [] }
        let offsets = [8] + Array(stride(from: 16, to: min(size, prefix.count) - 3, by: 4))
        return offsets.map { String(decoding: prefix[$0..<($0 + 4)], as: UTF8.self) }
    }

    /// Which codec takes the file `prefix` starts, or `nil` when its brands name neither.
    static func family(_ prefix: [UInt8]) -> Family? {
        let brands = brands(prefix)
        if brands.contains(where: avifBrands.contains) { return .avif }
        if brands.contains(where: heifBrands.contains) { return .heif }
        return nil
    }
}
