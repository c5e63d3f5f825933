import CLibGIF

/// A GIF colour table as 256 RGBA pixels ready to store, read from a giflib `ColorMapObject`.
///
/// LZW codes may name indices past the end of a short table (the code size is independent of the table
/// size); those pixels are opaque black, as Chromium and Firefox draw them.
struct GIFPalette {
    /// Each entry's R, G, B, A bytes in memory order.
    private(set) var entries: [UInt32]

    /// The table `map` points to, or `nil` when there is none.
    init?(_ map: UnsafeMutablePointer<ColorMapObject>?) {
        guard let map, let colors = map.pointee.Colors else { return nil }
        let opaqueBlack = Self.pack(red: 0, green: 0, blue: 0)
        entries = [UInt32](repeating: opaqueBlack, count: 256)
        let count = min(Int(map.pointee.ColorCount), 256)
        for index in 0..<count {
            let color = colors[index]
            entries[index] = Self.pack(red: color.Red, green: color.Green, blue: color.Blue)
        }
    }

    /// An opaque colour as the four bytes R, G, B, 255 in memory order.
    private static func pack(red: UInt8, green: UInt8, blue: UInt8) -> UInt32 {
        let bytes: (UInt8, UInt8, UInt8, UInt8) = (red, green, blue, 255)
        return withUnsafeBytes(of: bytes) { $0.load(as: UInt32.self) }
    }
}
