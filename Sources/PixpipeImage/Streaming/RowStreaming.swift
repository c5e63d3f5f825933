/// What a row writer is told before the first row: the size, the pixel format of the rows it gets, and the
/// metadata (ICC profile, EXIF, orientation) a header holds.
struct RowStreamHeader {
    /// Width in pixels.
    var width: Int
    /// Height in pixels.
    var height: Int
    /// The layout of the rows the writer is given.
    var pixelFormat: PixelFormat
    /// What the encoder may store ahead of the pixels.
    var metadata: ImageMetadata
}

/// An encoder that takes an image's rows top to bottom and writes its file while it encodes, so that
/// neither the whole image nor the whole encoded file is ever held.
protocol RowWriter: AnyObject {
    /// Encodes and writes the next rows: `band` holds them whole, in the header's pixel format.
    func write(_ band: Image) throws
    /// Writes what follows the last row; called once every row is written.
    func finish() throws
}

/// A decoder that gives an image's rows top to bottom, holding a band of them, never the image.
protocol RowSource: AnyObject {
    /// Size, pixel format and the metadata read before the pixels.
    var header: RowStreamHeader { get }
    /// The bytes of row `index`, valid until a later band is read; rows are asked for in increasing order.
    func row(_ index: Int) -> UnsafeRawPointer
    /// Ends the read once every row was asked for: strict mode throws a failure the rows met (lenient mode
    /// keeps it as a warning), and the metadata is returned, warnings included, with what was read after
    /// the pixels (a PNG's eXIf after the image data).
    func finish() throws(ImageDecodingError) -> ImageMetadata
}

/// A row source met metadata after the pixels that the file, written ahead of them, does not hold: the
/// conversion is then done on the whole image instead.
struct RowStreamRefusal: Error {}
