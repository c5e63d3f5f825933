import Foundation
import Pixpipe

/// What the first bytes of a file say: its format, whether its header declares alpha, and how many frames it
/// holds (for the default output format).
struct InputProbe: Sendable, Hashable {
    /// The format named by the magic number.
    let format: ImageFormat
    /// Whether the header read from the prefix declares an alpha channel (PNG colour type or tRNS, ...).
    let hasAlpha: Bool
    /// How many frames the header declares (1 for a still image, or when the bytes read cut it short).
    let frameCount: Int

    /// How much of a file is read: the header and the metadata usually before the image data.
    static let prefixLength = 64 << 10

    /// The probe of the file at `path`, or `nil` when it cannot be read or is in no decodable format.
    ///
    /// `countsFrames` reads the whole file, as some formats (GIF) only say how many frames they hold by
    /// walking them; otherwise only ``prefixLength`` bytes are read and a longer animation may count short.
    init?(path: String, countsFrames: Bool = false) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let bytes = countsFrames ? try? handle.readToEnd() : try? handle.read(upToCount: Self.prefixLength)
        guard let bytes else { return nil }
        self.init(prefix: bytes)
    }

    /// The probe of a file's leading bytes; a header the prefix cuts short counts as having no alpha.
    init?(prefix: Data) {
        guard let format = ImageFormat.sniff(prefix) else { return nil }
        self.format = format
        let info = try? Image.info(data: prefix, options: DecodeOptions(pixelLimit: nil))
        hasAlpha = info?.pixelFormat.layout.hasAlpha ?? false
        frameCount = info?.animation?.frameCount ?? 1
    }
}
