/// Source rows of a PNG, read from libpng a band at a time and served in increasing order.
///
/// A row's bytes stay valid until a row of a later band is asked for. After a read failure the rest of
/// the image reads as zero and ``failure`` says where it stopped.
final class PNGRowBand {
    private let reader: PNGReader
    private let bytesPerRow: Int
    private let height: Int
    private let rowsPerBand: Int
    private let band: UnsafeMutableRawBufferPointer
    /// The first image row held in `band`.
    private var bandStart = 0
    /// How many rows `band` holds.
    private var bandCount = 0
    /// The first read failure, with the number of rows read before it.
    private(set) var failure: PNGReader.RowFailure?

    /// The byte budget of one band: large enough for libpng to work efficiently, small beside any image.
    static let bandByteBudget = 1 << 20

    /// Rows of `bytesPerRow` bytes from `reader`, `height` of them.
    init(reader: PNGReader, bytesPerRow: Int, height: Int) {
        self.reader = reader
        self.bytesPerRow = bytesPerRow
        self.height = height
        rowsPerBand = max(1, min(height, Self.bandByteBudget / max(1, bytesPerRow)))
        band = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, rowsPerBand * bytesPerRow), alignment: 16)
        band.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit { band.deallocate() }

    /// The bytes of image row `index`, which must not be before the current band.
    func row(_ index: Int) -> UnsafeRawPointer {
        precondition(index >= bandStart && index < height, "rows are read forward only")
        while index >= bandStart + bandCount { readNextBand() }
        // The buffer is never empty (see init), so its base address exists.
        return UnsafeRawPointer(band.baseAddress!) + (index - bandStart) * bytesPerRow
    }

    /// Reads the rows after the current band, so the reader reaches the image's end.
    func readRemainingRows() {
        while bandStart + bandCount < height { readNextBand() }
    }

    private func readNextBand() {
        bandStart += bandCount
        bandCount = min(rowsPerBand, height - bandStart)
        guard failure == nil, let base = band.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            band.initializeMemory(as: UInt8.self, repeating: 0)
            return
        }
        let pointers: [UnsafeMutablePointer<UInt8>?] = (0..<bandCount).map { base + $0 * bytesPerRow }
        do throws(PNGReader.RowFailure) {
            try reader.readRows(pointers)
        } catch {
            failure = PNGReader.RowFailure(error: error.error, rowsRead: bandStart + error.rowsRead)
            let kept = error.rowsRead * bytesPerRow
            UnsafeMutableRawBufferPointer(rebasing: band[kept...]).initializeMemory(as: UInt8.self, repeating: 0)
        }
    }
}
