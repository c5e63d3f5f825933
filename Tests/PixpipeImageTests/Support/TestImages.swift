@testable import PixpipeImage

/// Deterministic images and metadata blocks for codec tests.
enum TestImages {
    /// An image whose samples follow a fixed pseudo-random sequence, so every sample value occurs.
    static func noise(width: Int, height: Int, format: PixelFormat, seed: UInt32 = 1) -> Image {
        var image = Image(width: width, height: height, pixelFormat: format)
        var state = seed
        let maximum = format.bitsPerSample == 16 ? 65535 : 255
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<format.channels {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    image[x: x, y: y, channel: channel] = Int(state >> 8) % (maximum + 1)
                }
            }
        }
        return image
    }

    /// A 420-byte ICC profile for `colorSpace` with one tag (the D50 white point) that libpng accepts.
    ///
    /// The bytes after the tag data are noise: libpng 1.6 refuses ("too short") an iCCP chunk whose
    /// compressed profile is only a few dozen bytes, which an all-zero profile would be.
    static func iccProfile(colorSpace: String = "RGB ") -> [UInt8] {
        let size = 420
        var profile = [UInt8](repeating: 0, count: 164) + noise(width: size - 164, height: 1, format: .gray8).pixels
        func put(_ bytes: [UInt8], at offset: Int) { profile.replaceSubrange(offset..<(offset + bytes.count), with: bytes) }
        let d50 = PNGBytes.bigEndian(0x0000_F6D6) + PNGBytes.bigEndian(0x0001_0000) + PNGBytes.bigEndian(0x0000_D32D)
        put(PNGBytes.bigEndian(UInt32(size)), at: 0)
        put(PNGBytes.bigEndian(0x0240_0000), at: 8)  // version 2.4
        put(Array("mntr".utf8), at: 12)
        put(Array(colorSpace.utf8), at: 16)
        put(Array("XYZ ".utf8), at: 20)
        put(Array("acsp".utf8), at: 36)
        put(d50, at: 68)  // the PCS illuminant, which libpng checks
        // Tag table: one entry, the media white point, whose XYZ data follows the table.
        put(PNGBytes.bigEndian(1), at: 128)
        put(Array("wtpt".utf8) + PNGBytes.bigEndian(144) + PNGBytes.bigEndian(20), at: 132)
        put(Array("XYZ ".utf8) + [0, 0, 0, 0] + d50, at: 144)
        return profile
    }

    /// A big-endian TIFF block whose IFD0 holds only the orientation tag.
    static func exif(orientation: Orientation) -> [UInt8] {
        [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation.rawValue), 0, 0]
            + [0, 0, 0, 0]
    }
}
