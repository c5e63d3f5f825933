extension ImageMetadata {
    /// A white point and three primaries as CIE 1931 x, y chromaticities, as a PNG `cHRM` chunk gives them.
    public struct Chromaticities: Sendable, Hashable, Codable {
        /// White point x.
        public var whiteX: Double
        /// White point y.
        public var whiteY: Double
        /// Red x.
        public var redX: Double
        /// Red y.
        public var redY: Double
        /// Green x.
        public var greenX: Double
        /// Green y.
        public var greenY: Double
        /// Blue x.
        public var blueX: Double
        /// Blue y.
        public var blueY: Double

        /// Chromaticities from (x, y) pairs.
        public init(
            white: (Double, Double), red: (Double, Double), green: (Double, Double), blue: (Double, Double)
        ) {
            (whiteX, whiteY) = white
            (redX, redY) = red
            (greenX, greenY) = green
            (blueX, blueY) = blue
        }

        /// sRGB's (BT.709 primaries, D65 white), as PNG writes them.
        public static let sRGB = Chromaticities(
            white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06))

        /// Whether these are sRGB's within `tolerance` on every coordinate (PNG stores them to 1/100000).
        public func isSRGB(tolerance: Double = 0.0005) -> Bool {
            let mine = [whiteX, whiteY, redX, redY, greenX, greenY, blueX, blueY]
            let sRGB = Self.sRGB
            let theirs = [
                sRGB.whiteX, sRGB.whiteY, sRGB.redX, sRGB.redY, sRGB.greenX, sRGB.greenY, sRGB.blueX, sRGB.blueY,
            ]
            return zip(mine, theirs).allSatisfy { abs($0 - $1) <= tolerance }
        }
    }
}
