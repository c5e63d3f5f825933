/// The rows of a single-page TIFF file, read by libtiff a strip (or a row of tiles) at a time from a
/// mapping whose pages are given back as they are read, for ``StreamedConversion``. The samples and the
/// checks are those ``TIFFDecoder`` gives the whole page.
final class TIFFRowSource: RowSource {
    let header: RowStreamHeader
    /// The mapping ``handle`` reads: held here, so its bytes stay valid as long as the handle.
    private let file: MappedFile
    private let handle: TIFFHandle
    private let layout: TIFFPageLayout
    private let rows: TIFFRowBand
    private let options: DecodeOptions

    /// The source of the file at `path`, or `nil` for a file of several pages or a page read through
    /// libtiff's RGBA interface (whole, see ``TIFFPageLayout/Path/rgba``).
    static func open(path: String, options: DecodeOptions) throws(ImageDecodingError) -> TIFFRowSource? {
        let file = try MappedFile(path: path)
        // The bytes stay valid beyond the closure: the mapping lasts as long as `file`, which the source keeps.
        let bytes = file.withBytes { $0 }
        guard let structure = TIFFStructure(bytes, limit: 2), structure.pages.count == 1, structure.stop == .end
        else { return nil }
        let handle = try TIFFHandle(bytes: bytes, pixelLimit: options.pixelLimit, isFileMapping: true)
        try options.checkPixels(width: Int(handle.page.width), height: Int(handle.page.height))
        let layout = try TIFFPageLayout(handle: handle, keeps16Bit: options.keeps16Bit)
        guard case .samples = layout.path else { return nil }
        let rows = try TIFFRowBand(handle: handle, layout: layout)
        return TIFFRowSource(file: file, handle: handle, layout: layout, rows: rows, options: options)
    }

    private init(
        file: MappedFile, handle: TIFFHandle, layout: TIFFPageLayout, rows: TIFFRowBand, options: DecodeOptions
    ) {
        self.file = file
        self.handle = handle
        self.layout = layout
        self.rows = rows
        self.options = options
        header = RowStreamHeader(
            width: layout.width, height: layout.height, pixelFormat: layout.output,
            metadata: TIFFMetadata.metadata(of: handle, warnings: []))
    }

    func row(_ index: Int) -> UnsafeRawPointer { rows.row(index) }

    func finish() throws(ImageDecodingError) -> ImageMetadata {
        rows.readRemainingRows()
        var warnings = layout.warnings
        try TIFFDecoder.collect(rows, height: layout.height, options: options, into: &warnings)
        warnings += handle.takeWarnings()
        try options.enforce(warnings, format: .tiff)
        return TIFFMetadata.metadata(of: handle, warnings: warnings)
    }
}
