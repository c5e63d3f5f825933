import Foundation

/// Converts an image file to another file with rows streamed from the decoder to the encoder, in bounded
/// memory: a band of rows is held, never the whole image and never the whole encoded file.
///
/// It applies where no step needs the whole image: a single still image (no animation, one page), no
/// resize, no colour conversion, and an orientation that changes nothing (``Orientation/up``, or
/// `appliesOrientation` false). The decoders that give rows are PNG (not interlaced: Adam7 fills rows over
/// seven passes) and TIFF (strips and tiles read as samples); the encoders that take rows are PNG (not
/// interlaced), PAM and PGM/PPM. Elsewhere ``convert(contentsOfFile:to:as:options:appliesOrientation:)``
/// returns `nil` and writes nothing, and the caller decodes the whole image as before.
///
/// The output is atomic: rows go to a temporary file beside `output`, renamed over it once the decode
/// has finished cleanly, so a decode failure midway leaves no output and no temporary file.
///
/// ```swift
/// if let result = try StreamedConversion.convert(contentsOfFile: "scan.png", to: "scan.pam", as: .pam) {
///     print(result.width, result.height)
/// }
/// ```
public enum StreamedConversion {
    /// What a streamed conversion wrote.
    public struct Result: Sendable, Hashable {
        /// Width of the image written.
        public var width: Int
        /// Height of the image written.
        public var height: Int
        /// The decoder's warnings (lenient mode keeps damage as warnings, as the whole decode does).
        public var warnings: [DecodeWarning]
    }

    /// Rows per band handed to the encoder: the band is copied once, so it is kept near 1 MiB.
    static let bandByteBudget = 1 << 20

    /// Converts the file at `input` to `output` (replaced atomically, flushed) with `encoding`, or returns
    /// `nil` without touching `output` when the conversion cannot be streamed (see the type's summary).
    ///
    /// Throws the decoder's ``ImageDecodingError``, the encoder's ``ImageEncodingError`` or
    /// `AtomicFileWriter.Failure` for the file steps; the output is then left as it was.
    public static func convert(
        contentsOfFile input: String, to output: String, as encoding: ImageEncoding, options: DecodeOptions = .init(),
        appliesOrientation: Bool = true
    ) throws -> Result? {
        let outcome = try convert(
            contentsOfFile: input, to: output, as: encoding, options: options, appliesOrientation: appliesOrientation,
            replacing: true)
        guard case .written(let result) = outcome else { return nil }
        return result
    }

    /// What a streamed conversion that may find its output name taken came to.
    package enum Outcome: Sendable, Hashable {
        /// The output was written.
        case written(Result)
        /// The output was not replacing and its name was taken once the rows were written: nothing changed.
        case taken
    }

    /// Converts as ``convert(contentsOfFile:to:as:options:appliesOrientation:)`` does; without `replacing`,
    /// `output` is written as a new file only if nothing has the name (``Outcome/taken`` otherwise), as a
    /// batch writes outputs it did not find at planning. `nil` when the conversion cannot be streamed.
    package static func convert(
        contentsOfFile input: String, to output: String, as encoding: ImageEncoding, options: DecodeOptions,
        appliesOrientation: Bool, replacing: Bool
    ) throws -> Outcome? {
        guard let codec = ImageCodecs.codec(for: encoding.format), codec.canEncode else { return nil }
        guard let source = try openSource(input, options: options) else { return nil }
        var header = source.header
        if appliesOrientation && header.metadata.orientation != .up { return nil }
        guard let rowFormat = codec.rowFormat(for: header.pixelFormat, options: encoding.options) else { return nil }
        header.pixelFormat = rowFormat
        do {
            var result: Result?
            let contents = { (descriptor: Int32) throws in
                result = try stream(source, format: rowFormat, into: descriptor, codec: codec, encoding: encoding)
            }
            if replacing {
                try AtomicFileWriter.write(to: output, contents: contents)
            } else if try !AtomicFileWriter.writeNew(to: output, contents: contents) {
                return .taken
            }
            return result.map(Outcome.written)
        } catch is RowStreamRefusal {
            return nil
        }
    }

    /// Whether the file at `path` decodes to its end with `options`, read a row at a time rather than held
    /// whole; `nil` when the file gives no rows (the caller then decodes it whole to know).
    package static func decodesThrough(contentsOfFile path: String, options: DecodeOptions) -> Bool? {
        let source: (any RowSource)?
        do { source = try openSource(path, options: options) } catch { return false }
        guard let source else { return nil }
        for index in 0..<source.header.height { _ = source.row(index) }
        return (try? source.finish()) != nil
    }

    /// The row source for the file at `path`, or `nil` when its format gives no rows or this file needs
    /// the whole image (several pages or frames, interlaced, a layout read whole).
    static func openSource(_ path: String, options: DecodeOptions) throws(ImageDecodingError) -> (any RowSource)? {
        let mapped = try MappedFile(path: path)
        if let limit = options.byteLimit, mapped.byteCount > limit {
            throw .inputTooLarge(bytes: mapped.byteCount, limit: limit)
        }
        let sniffed = mapped.withBytes { bytes in ImageCodecs.sniff(bytes) }
        guard let codec = sniffed else { return nil }
        return try codec.rowSource(path: path, options: options)
    }

    private static func stream(
        _ source: any RowSource, format: PixelFormat, into descriptor: Int32, codec: any ImageCodec,
        encoding: ImageEncoding
    ) throws -> Result {
        let header = source.header
        var streamHeader = header
        streamHeader.pixelFormat = format
        let writer = try codec.rowWriter(streamHeader, options: encoding.options, descriptor: descriptor)
        try pump(header, format: format, into: writer, row: source.row)
        let metadata = try source.finish()
        let written = header.metadata
        guard
            metadata.iccProfile == written.iccProfile && metadata.exif == written.exif
                && metadata.orientation == written.orientation
        else { throw RowStreamRefusal() }
        try writer.finish()
        return Result(width: header.width, height: header.height, warnings: metadata.warnings)
    }

    /// Hands every row `row` gives (in `header`'s pixel format) to `writer` in bands of about
    /// ``bandByteBudget``, each converted to `format` (what the writer takes) when it differs.
    static func pump(
        _ header: RowStreamHeader, format: PixelFormat, into writer: any RowWriter,
        row: (Int) -> UnsafeRawPointer
    ) throws {
        let sourceRowBytes = header.width * header.pixelFormat.bytesPerPixel
        let bandRows = max(1, min(header.height, bandByteBudget / max(1, sourceRowBytes)))
        var band = Image(width: header.width, height: bandRows, pixelFormat: header.pixelFormat)
        var start = 0
        while start < header.height {
            let count = min(bandRows, header.height - start)
            if count != band.height {
                band = Image(width: header.width, height: count, pixelFormat: header.pixelFormat)
            }
            band.withUnsafeMutableBytes { destination in
                guard let base = destination.baseAddress else { return }
                for index in 0..<count {
                    (base + index * sourceRowBytes).copyMemory(from: row(start + index), byteCount: sourceRowBytes)
                }
            }
            try writer.write(band.pixelFormat == format ? band : band.converted(to: format))
            start += count
        }
    }
}
