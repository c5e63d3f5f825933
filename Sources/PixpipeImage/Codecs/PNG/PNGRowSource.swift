import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The rows of a non-interlaced PNG file, read by libpng from the file a band at a time, for
/// ``StreamedConversion``; the samples are those ``PNGDecoder`` gives (same transforms, same checks).
final class PNGRowSource: RowSource {
    let header: RowStreamHeader
    private let descriptor: Int32
    private let reader: PNGReader
    private let pngHeader: PNGReader.Header
    private let rows: PNGRowBand
    private let options: DecodeOptions

    /// The source of the rows of the file at `path`, or `nil` for an interlaced PNG (Adam7 fills rows over
    /// seven passes). The file is read through a small buffer, never mapped or read whole.
    static func open(path: String, options: DecodeOptions) throws(ImageDecodingError) -> PNGRowSource? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        var handedOver = false
        defer { if !handedOver { close(descriptor) } }
        let reader = try PNGReader(fileDescriptor: descriptor)
        let pngHeader = try reader.readHeader()
        guard !pngHeader.isInterlaced else { return nil }
        let (output, _) = try PNGDecoder.prepare(reader, header: pngHeader, options: options)
        handedOver = true
        return PNGRowSource(descriptor: descriptor, reader: reader, header: pngHeader, output: output, options: options)
    }

    /// Takes ownership of `descriptor`, which `reader` reads.
    private init(
        descriptor: Int32, reader: PNGReader, header pngHeader: PNGReader.Header, output: PNGReader.Output,
        options: DecodeOptions
    ) {
        self.descriptor = descriptor
        self.reader = reader
        self.pngHeader = pngHeader
        self.options = options
        var metadata = PNGDecoder.baseMetadata(pngHeader)
        pngHeader.chunks.apply(to: &metadata)
        header = RowStreamHeader(
            width: pngHeader.width, height: pngHeader.height, pixelFormat: output.pixelFormat, metadata: metadata)
        rows = PNGRowBand(reader: reader, bytesPerRow: output.bytesPerRow, height: pngHeader.height)
    }

    deinit { close(descriptor) }

    func row(_ index: Int) -> UnsafeRawPointer { rows.row(index) }

    func finish() throws(ImageDecodingError) -> ImageMetadata {
        let failure = rows.failure.map { PNGDecoder.RowFailure(error: $0.error, rowsRead: $0.rowsRead) }
        let metadata = try PNGDecoder.finish(reader, header: pngHeader, pixelFailure: failure, options: options)
        return metadata
    }
}
