import Foundation
import Pixpipe

/// What the first bytes of a file say: PNG or JPEG, and whether a PNG has alpha (for the default format).
struct InputProbe: Sendable, Hashable {
    /// The format named by the magic number.
    let format: ImageFormat
    /// Whether a PNG's colour type has alpha or a tRNS chunk comes before its image data.
    let hasAlpha: Bool

    /// How much of a file is read: the PNG header and the chunks usually before the image data.
    static let prefixLength = 64 << 10

    /// The probe of the file at `path`, or `nil` when it cannot be read or is neither PNG nor JPEG.
    init?(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let prefix = try? handle.read(upToCount: Self.prefixLength) else { return nil }
        self.init(prefix: [UInt8](prefix))
    }

    /// The probe of a file's leading bytes.
    init?(prefix bytes: [UInt8]) {
        guard let format = ImageFormat.sniff(bytes) else { return nil }
        self.format = format
        hasAlpha = format == .png && Self.pngHasAlpha(bytes)
    }

    /// Reads the colour type from IHDR, then looks for tRNS among the chunks before IDAT.
    private static func pngHasAlpha(_ bytes: [UInt8]) -> Bool {
        let colourTypeOffset = 8 + 8 + 9  // signature, IHDR length and type, then width, height, depth
        guard bytes.count > colourTypeOffset else { return false }
        if bytes[colourTypeOffset] == 4 || bytes[colourTypeOffset] == 6 { return true }
        var position = 8
        while position + 8 <= bytes.count {
            let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            if type == "tRNS" { return true }
            if type == "IDAT" { return false }
            position += 12 + length
        }
        return false
    }
}
