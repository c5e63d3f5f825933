import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The rows of a gray or colour (not CMYK) JPEG file at full size, decoded by libjpeg a batch of scanlines
/// at a time from the file (read in small pieces), for ``StreamedConversion``. Samples, checks and
/// warnings are those ``JPEGDecoder`` gives the whole image.
final class JPEGRowSource: RowSource {
    let header: RowStreamHeader
    private let descriptor: Int32
    private let reader: JPEGReader
    private let options: DecodeOptions
    private let band: UnsafeMutableRawBufferPointer
    private let rowBytes: Int
    private var bandStart = 0
    private var bandCount = 0
    /// The first failure: strict mode's refused warning or libjpeg's error; later rows read as zero.
    private var failure: ImageDecodingError?

    /// The source of the file at `path`, or `nil` for a CMYK or YCCK file (converted through its profile
    /// by the whole decode) or a reduced-size decode.
    static func open(path: String, options: DecodeOptions) throws(ImageDecodingError) -> JPEGRowSource? {
        guard options.jpegScale == .full else { return nil }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        var handedOver = false
        defer { if !handedOver { close(descriptor) } }
        let reader = try JPEGReader(fileDescriptor: descriptor, pixelLimit: options.pixelLimit)
        try options.enforce(reader.warnings, format: .jpeg)
        try JPEGDecoder.checkPrecision(reader)
        let space = reader.outputSpace
        guard space != .cmyk else { return nil }
        let metadata = reader.metadata()
        let (width, height) = try reader.configure(scaleNumerator: 8, space: space)
        try options.checkPixels(width: width, height: height)
        guard width > 0, height > 0 else { throw .corrupt(format: .jpeg, reason: "image has no pixels") }
        _ = try reader.start()
        try options.enforce(reader.warnings, format: .jpeg)
        handedOver = true
        return JPEGRowSource(
            descriptor: descriptor, reader: reader, options: options,
            header: RowStreamHeader(
                width: width, height: height, pixelFormat: reader.outputPixelFormat, metadata: metadata))
    }

    private init(descriptor: Int32, reader: JPEGReader, options: DecodeOptions, header: RowStreamHeader) {
        self.descriptor = descriptor
        self.reader = reader
        self.options = options
        self.header = header
        rowBytes = header.width * header.pixelFormat.bytesPerPixel
        band = .allocate(byteCount: rowBytes * JPEGDecoder.rowsPerBatch, alignment: 16)
        band.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit {
        band.deallocate()
        close(descriptor)
    }

    func row(_ index: Int) -> UnsafeRawPointer {
        precondition(index >= bandStart && index < header.height, "rows are read forward only")
        while index >= bandStart + bandCount { readNextBand() }
        // Allocated with at least one row, so the base address exists.
        return UnsafeRawPointer(band.baseAddress!) + (index - bandStart) * rowBytes
    }

    private func readNextBand() {
        bandStart += bandCount
        bandCount = min(JPEGDecoder.rowsPerBatch, header.height - bandStart)
        var filled = 0
        if failure == nil {
            do throws(ImageDecodingError) {
                while filled < bandCount {
                    let window = UnsafeMutableRawBufferPointer(rebasing: band[(filled * rowBytes)...])
                    let read = try reader.readRows(into: window, stride: rowBytes, count: bandCount - filled)
                    if read == 0 { throw .corrupt(format: .jpeg, reason: "decoder produced no rows") }
                    filled += read
                }
                try options.enforce(reader.warnings, format: .jpeg)
            } catch {
                failure = error
            }
        }
        if filled < bandCount {
            UnsafeMutableRawBufferPointer(rebasing: band[(filled * rowBytes)..<(bandCount * rowBytes)])
                .initializeMemory(as: UInt8.self, repeating: 0)
        }
    }

    func finish() throws(ImageDecodingError) -> ImageMetadata {
        if let failure { throw failure }
        var metadata = header.metadata
        if let damagedTail = try JPEGDecoder.finish(reader, options: options) { metadata.warnings.append(damagedTail) }
        metadata.warnings = reader.warnings + metadata.warnings
        return metadata
    }
}
