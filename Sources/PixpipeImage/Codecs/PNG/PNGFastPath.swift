import CLibDeflate
import CPixpipeImage

/// The image data of the common PNG shape read without libpng's row loop: the IDAT chunks are CRC-checked
/// and joined, inflated at once by libdeflate into the pixel buffer, and unfiltered in place.
///
/// It takes non-interlaced files of 8-bit gray, gray+alpha, RGB and RGBA without tRNS (and the same at
/// 16 bits when they are kept), whose image data is IDAT chunks followed directly by a clean IEND, read
/// from memory. libpng still reads everything before the image data (the header, every metadata chunk, their
/// checks and warnings), so the metadata is the libpng path's. The samples need no transform: the stored
/// bytes are the output (16-bit ones swapped to native order). Whatever looks unusual — a damaged chunk, a
/// stream that does not inflate to exactly the image's size, data after the stream, a bad filter type, a
/// zlib window under 32 KiB — makes ``decode(into:)`` give up, and libpng decodes the file as before, so
/// errors, warnings and lenient results stay libpng's.
struct PNGFastPath {
    /// The IDAT payloads, in order, as ranges of the file's bytes.
    private let payloads: [Range<Int>]
    private let bytes: UnsafeRawBufferPointer
    private let height: Int
    /// Unfiltered bytes per row, also the output's.
    private let rowBytes: Int
    /// PNG's filter unit: bytes per complete pixel.
    private let bytesPerPixel: Int
    private let swaps16Bit: Bool

    /// The most bytes one IDAT chunk may hold here; libpng refuses none up to this size.
    private static let chunkLimit = 16 * 1024 * 1024

    /// The bytes the pixel buffer needs for ``decode(into:)``: the inflated image data, one filter byte per
    /// row more than the image.
    let bufferCount: Int

    /// A plan for the file in `bytes` whose header `reader` has read and whose output is set, or `nil` when
    /// the file is not of the shape this path takes (libpng then reads it). Reads only chunk headers and
    /// CRCs; allocates nothing.
    init?(bytes: UnsafeRawBufferPointer, reader: PNGReader, header: PNGReader.Header, output: PNGReader.Output) {
        guard !header.isInterlaced, output.passes == 1, !header.hasTransparency,
            header.bitDepth == 8 || header.bitDepth == 16,
            output.pixelFormat.bitsPerSample == header.bitDepth
        else { return nil }
        let channels: Int
        switch header.colorType {
        case Int32(PXP_PNG_COLOR_GRAY): channels = 1
        case Int32(PXP_PNG_COLOR_GRAY_ALPHA): channels = 2
        case Int32(PXP_PNG_COLOR_RGB): channels = 3
        case Int32(PXP_PNG_COLOR_RGBA): channels = 4
        default: return nil
        }
        let bytesPerPixel = channels * header.bitDepth / 8
        guard output.pixelFormat.layout.channels == channels,
            output.bytesPerRow == header.width * bytesPerPixel,
            let start = reader.imageDataOffset, let payloads = Self.imageData(bytes, from: start),
            let first = payloads.first, bytes[first.lowerBound] == 0x78  // deflate, 32 KiB window
        else { return nil }
        let (filtered, overflow) = (output.bytesPerRow + 1).multipliedReportingOverflow(by: header.height)
        guard !overflow else { return nil }
        self.payloads = payloads
        self.bytes = bytes
        self.height = header.height
        self.rowBytes = output.bytesPerRow
        self.bytesPerPixel = bytesPerPixel
        self.swaps16Bit = header.bitDepth == 16 && UInt16(1).littleEndian == 1
        self.bufferCount = filtered
    }

    /// The IDAT payloads from `start` (just after the first IDAT's chunk header), each CRC-checked, when
    /// they run straight into an IEND chunk that is whole and clean; `nil` for anything else.
    private static func imageData(_ bytes: UnsafeRawBufferPointer, from start: Int) -> [Range<Int>]? {
        var payloads: [Range<Int>] = []
        var position = start - 8
        while true {
            guard position >= 8, bytes.count - position >= 12 else { return nil }
            let length = Int(bigEndian32(bytes, at: position))
            let type = bigEndian32(bytes, at: position + 4)
            guard length <= bytes.count - position - 12 else { return nil }
            let body = UnsafeRawBufferPointer(rebasing: bytes[(position + 4)..<(position + 8 + length)])
            let crc = libdeflate_crc32(0, body.baseAddress, body.count)
            guard crc == bigEndian32(bytes, at: position + 8 + length) else { return nil }
            switch type {
            case 0x4944_4154:  // IDAT
                // An empty IDAT, or one longer than libpng takes, is left to libpng to judge.
                guard length > 0, length <= chunkLimit else { return nil }
                payloads.append((position + 8)..<(position + 8 + length))
                position += 12 + length
            case 0x4945_4E44:  // IEND
                return length == 0 && !payloads.isEmpty ? payloads : nil
            default:
                return nil
            }
        }
    }

    private static func bigEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    /// Inflates and unfilters the image into `buffer` (at least ``bufferCount`` bytes); its first
    /// `height * rowBytes` bytes are then the image. Returns `false` when anything is off; the buffer's
    /// contents are then undefined and libpng should decode the file.
    func decode(into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard buffer.count >= bufferCount, let target = buffer.baseAddress else { return false }
        guard inflate(into: target) else { return false }
        let rows = pxp_png_unfilter(target.assumingMemoryBound(to: UInt8.self), height, rowBytes, bytesPerPixel)
        guard rows == height else { return false }
        if swaps16Bit { pxp_png_swap16(target.assumingMemoryBound(to: UInt8.self), height * rowBytes / 2) }
        return true
    }

    /// Inflates the joined payloads into exactly ``bufferCount`` bytes, all of the stream used.
    private func inflate(into target: UnsafeMutableRawPointer) -> Bool {
        guard let decompressor = libdeflate_alloc_decompressor() else { return false }
        defer { libdeflate_free_decompressor(decompressor) }
        let total = payloads.reduce(0) { $0 + $1.count }
        var read = 0
        var written = 0
        let result: libdeflate_result
        if payloads.count == 1 {
            result = libdeflate_zlib_decompress_ex(
                decompressor, bytes.baseAddress! + payloads[0].lowerBound, total, target, bufferCount, &read,
                &written)
        } else {
            // libdeflate inflates one contiguous buffer; the joined copy is no larger than the file.
            let joined = UnsafeMutableRawBufferPointer.allocate(byteCount: total, alignment: 16)
            defer { joined.deallocate() }
            var offset = 0
            for payload in payloads {
                UnsafeMutableRawBufferPointer(rebasing: joined[offset..<(offset + payload.count)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[payload]))
                offset += payload.count
            }
            result = libdeflate_zlib_decompress_ex(
                decompressor, joined.baseAddress, total, target, bufferCount, &read, &written)
        }
        return result == LIBDEFLATE_SUCCESS && read == total && written == bufferCount
    }
}
