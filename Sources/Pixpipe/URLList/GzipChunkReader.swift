import CPixpipeArchive
import Foundation

/// Reads a gzip-compressed list as chunks of its decompressed bytes, through libarchive's gzip filter and raw
/// format (the library the downloader loads for its archives anyway; zlib alone would be one more system
/// library to declare and install), with the decompressed size bounded.
///
/// Bounded two ways, so a gzip bomb ends the list with ``URLListError/decompressedTooLarge(limit:)`` rather
/// than hours of reading: the total (``URLList/maximumDecompressedBytes``), and the ratio past 1 MiB (more
/// than 1,000 decompressed bytes per compressed byte, near deflate's limit of about 1,032: only data made to
/// compress, never a real list, gets there).
///
/// Not `Sendable`: one list iterator pulls its chunks.
final class GzipChunkReader {
    private let archive: UnsafeMutableRawPointer?
    private let limit: Int
    private var total = 0
    /// The compressed bytes of an in-memory list, kept for libarchive, which reads them in place.
    private var memory: UnsafeMutableRawBufferPointer?

    /// The decompressed size past which the ratio is checked.
    static let ratioFloor = 1 << 20
    /// The most decompressed bytes per compressed byte past ``ratioFloor``.
    static let maximumRatio = 1000

    /// Whether `bytes` start as a gzip stream does (`1f 8b`): the bytes decide, not the file's name.
    static func isGzip(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        return iterator.next() == 0x1f && iterator.next() == 0x8b
    }

    /// A reader of the gzip file at `path`.
    init(path: String, limit: Int) throws(ListReadFailure) {
        self.limit = limit
        var failed: Int32 = 0
        archive = pxp_archive_gzip_reader_open(path, nil, 0, &failed)
        if failed != 0 { throw failure("cannot read the gzip stream") }
    }

    /// A reader of the gzip stream `bytes`.
    init(bytes: [UInt8], limit: Int) throws(ListReadFailure) {
        self.limit = limit
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        copy.copyBytes(from: bytes)
        memory = copy
        var failed: Int32 = 0
        archive = pxp_archive_gzip_reader_open(nil, copy.baseAddress, bytes.count, &failed)
        if failed != 0 { throw failure("cannot read the gzip stream") }
    }

    deinit {
        pxp_archive_reader_free(archive)
        memory?.deallocate()
    }

    /// The next chunk of decompressed bytes, empty at the end.
    func next(upTo count: Int) throws(ListReadFailure) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: count)
        let read = chunk.withUnsafeMutableBytes { pxp_archive_gzip_reader_read(archive, $0.baseAddress, count) }
        guard read >= 0 else { throw failure("damaged gzip data") }
        chunk.removeLast(count - read)
        total += read
        let compressed = Int(pxp_archive_gzip_reader_consumed(archive))
        if total > limit || (total > Self.ratioFloor && total > Self.maximumRatio * max(1, compressed)) {
            throw ListReadFailure(reason: "decompressed list too large", decompressedLimit: limit)
        }
        return chunk
    }

    private func failure(_ what: String) -> ListReadFailure {
        let detail = (pxp_archive_error_string(archive) ?? pxp_archive_load_error()).map { String(cString: $0) }
        return ListReadFailure(reason: detail.map { "\(what): \($0)" } ?? what)
    }
}
