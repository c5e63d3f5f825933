import CPixpipeAVIF

/// An `avifIO` over bytes whose last top-level box was cut, claiming the length the boxes declare.
///
/// libavif's memory reader refuses such a file while parsing (a sample lies past the end), which would
/// lose the whole frames before the cut. This reader gives libavif the declared size as its size hint and
/// answers reads past the real end with fewer bytes, so only the frames whose samples are missing fail,
/// with `AVIF_RESULT_TRUNCATED_DATA` (lenient mode). The decoder does not own it (`destroy` is unset).
final class AVIFCutReader {
    /// The reader to hand to `avifDecoderSetIO`; valid while this object lives.
    let io: UnsafeMutablePointer<avifIO>
    private let context: UnsafeMutablePointer<UnsafeRawBufferPointer>

    /// A reader over `bytes`, which must outlive it.
    init(_ bytes: UnsafeRawBufferPointer) {
        context = .allocate(capacity: 1)
        context.initialize(to: bytes)
        io = .allocate(capacity: 1)
        io.initialize(
            to: avifIO(
                destroy: nil, read: Self.read, write: nil, sizeHint: UInt64(AVIFBoxes.declaredLength(bytes)),
                persistent: 1, data: UnsafeMutableRawPointer(context)))
    }

    deinit {
        io.deinitialize(count: 1)
        io.deallocate()
        context.deinitialize(count: 1)
        context.deallocate()
    }

    /// libavif's read callback: the bytes from `offset`, as many as exist up to `size`.
    private static let read: avifIOReadFunc = { io, _, offset, size, out in
        guard let io, let out, let data = io.pointee.data else { return AVIF_RESULT_IO_ERROR }
        guard offset <= io.pointee.sizeHint else { return AVIF_RESULT_IO_ERROR }
        let bytes = data.assumingMemoryBound(to: UnsafeRawBufferPointer.self).pointee
        let start = Int(min(offset, UInt64(bytes.count)))
        out.pointee.data = bytes.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) + start }
        out.pointee.size = min(size, bytes.count - start)
        return AVIF_RESULT_OK
    }
}
