import Foundation

/// Writes a PAM, PGM or PPM file to an open descriptor band by band, with the header and sample order
/// ``NetpbmEncoder`` gives the whole image: rows arrive in the layout the variant stores (see
/// ``NetpbmCodec/rowFormat(for:options:)``), 16-bit samples are swapped to big-endian per band.
final class NetpbmRowWriter: RowWriter {
    private let descriptor: Int32
    private var swapped: [UInt8] = []

    /// Writes the header for `header`'s size and pixel format.
    init(_ header: RowStreamHeader, variant: NetpbmEncoder.Variant, descriptor: Int32) throws {
        self.descriptor = descriptor
        let format = header.pixelFormat
        let text = NetpbmEncoder.header(width: header.width, height: header.height, format: format, variant: variant)
        try Array(text.utf8).withUnsafeBytes { bytes in
            try AtomicFileWriter.writeAll(bytes, to: descriptor, path: "the output file")
        }
    }

    func write(_ band: Image) throws {
        guard band.pixelFormat.bitsPerSample == 16 else {
            try band.withUnsafeBytes { bytes in
                try AtomicFileWriter.writeAll(bytes, to: descriptor, path: "the output file")
            }
            return
        }
        if swapped.count != band.pixels.count { swapped = [UInt8](repeating: 0, count: band.pixels.count) }
        band.withUnsafeBytes { raw in
            for (index, sample) in raw.bindMemory(to: UInt16.self).enumerated() {
                swapped[2 * index] = UInt8(sample >> 8)
                swapped[2 * index + 1] = UInt8(sample & 0xFF)
            }
        }
        try swapped.withUnsafeBytes { bytes in
            try AtomicFileWriter.writeAll(bytes, to: descriptor, path: "the output file")
        }
    }

    func finish() throws {}
}
