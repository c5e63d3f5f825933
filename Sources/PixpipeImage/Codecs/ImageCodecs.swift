import Foundation
import PixpipeLocking

/// The codec table: every format the package knows, in sniffing order, and the codecs a library user
/// registers at run time (``register(_:)``), which come after the built-in ones.
///
/// Everything that reads or writes images (sniffing, ``ImageFormat/init(name:)``, decoding, `info`,
/// thumbnails, encoding, the downloader's verification, the command line's format lists) asks this table.
public enum ImageCodecs {
    /// The codecs built in. Adding a format adds one line here.
    static let builtIn: [any ImageCodec] = [
        PNGCodec(),
        JPEGCodec(),
        WebPCodec(),
        GIFCodec(),
        AVIFCodec(),
        HEIFCodec(),
        JXLCodec(),
        TIFFCodec(),
        NetpbmCodec(variant: .pnm),
        NetpbmCodec(variant: .pam),
    ]

    /// The codecs registered at run time, in the order they were registered.
    private static let registered = Locked<[any ImageCodec]>([])

    /// Every codec: the built-in table, then the registered ones.
    static var all: [any ImageCodec] {
        let added = registered.withLock { $0 }
        return added.isEmpty ? builtIn : builtIn + added
    }

    /// Adds `codec` for the rest of the process, after every built-in codec and every codec registered
    /// before it; thread-safe. Returns `false` (and adds nothing) when its format's identifier or one of its
    /// file extensions already names a known format: built-in formats cannot be replaced.
    @discardableResult
    public static func register(_ codec: some ImageDecoding) -> Bool {
        let adapter = RegisteredCodec(base: codec)
        let names = [adapter.format.rawValue] + adapter.fileExtensions
        return registered.withLock { (added) -> Bool in
            let taken = (builtIn + added).contains { known in
                names.contains { $0 == known.format.rawValue || known.fileExtensions.contains($0) }
            }
            if taken { return false }
            added.append(adapter)
            return true
        }
    }

    /// The formats of the registered codecs, in the order they were registered.
    public static var registeredFormats: [ImageFormat] { registered.withLock { $0.map(\.format) } }

    /// How many leading bytes ``sniff(_:)`` reads: enough for every codec's magic bytes (an ISO-BMFF
    /// `ftyp` box with a few compatible brands is the longest).
    public static let signatureLength = 64

    /// The codec of `format`, or `nil` for a format outside the table.
    static func codec(for format: ImageFormat) -> (any ImageCodec)? {
        all.first { $0.format == format }
    }

    /// The decoding codec whose magic bytes start `bytes`, or `nil`.
    static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> (any ImageCodec)? {
        let prefix = Array(bytes.prefix(signatureLength))
        return all.first { $0.canDecode && $0.matches(prefix) }
    }

    /// The decoding codec for `bytes`, or ``ImageDecodingError/unsupportedFormat(recognized:)`` saying what
    /// the bytes are instead.
    static func decoder(for bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> any ImageCodec {
        guard let codec = sniff(bytes) else { throw .unsupportedFormat(recognized: RecognizedContent(bytes)) }
        return codec
    }
}
