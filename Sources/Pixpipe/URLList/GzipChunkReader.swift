import CLibArchive
import Foundation

/// Reads a gzip-compressed list as chunks of its decompressed bytes, through libarchive's gzip filter and raw
/// format (a library the downloader links already for its archives; zlib alone would be one more system
/// library to declare and install), with the decompressed size bounded.
///
/// Bounded two ways, so a gzip bomb ends the list with ``URLListError/decompressedTooLarge(limit:)`` rather
/// than hours of reading: the total (``URLList/maximumDecompressedBytes``), and the ratio past 1 MiB (more
/// than 1,000 decompressed bytes per compressed byte, near deflate's limit of about 1,032: only data made to
/// compress, never a real list, gets there).
///
/// Not `Sendable`: one list iterator pulls its chunks.
final class GzipChunkReader {
    private let archive: OpaquePointer?
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
        archive = archive_read_new()
        try start { archive_read_open_filename($0, path, 65_536) }
    }

    /// A reader of the gzip stream `bytes`.
    init(bytes: [UInt8], limit: Int) throws(ListReadFailure) {
        self.limit = limit
        archive = archive_read_new()
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        copy.copyBytes(from: bytes)
        memory = copy
        try start { archive_read_open_memory($0, copy.baseAddress, bytes.count) }
    }

    deinit {
        archive_read_free(archive)
        memory?.deallocate()
    }

    private func start(_ open: (OpaquePointer?) -> Int32) throws(ListReadFailure) {
        var entry: OpaquePointer?
        guard archive_read_support_filter_gzip(archive) == ARCHIVE_OK,
            archive_read_support_format_raw(archive) == ARCHIVE_OK, open(archive) == ARCHIVE_OK,
            archive_read_next_header(archive, &entry) == ARCHIVE_OK
        else { throw failure("cannot read the gzip stream") }
    }

    /// The next chunk of decompressed bytes, empty at the end.
    func next(upTo count: Int) throws(ListReadFailure) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: count)
        let read = chunk.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, count) }
        guard read >= 0 else { throw failure("damaged gzip data") }
        chunk.removeLast(count - read)
        total += read
        let compressed = Int(archive_filter_bytes(archive, -1))
        if total > limit || (total > Self.ratioFloor && total > Self.maximumRatio * max(1, compressed)) {
            throw ListReadFailure(reason: "decompressed list too large", decompressedLimit: limit)
        }
        return chunk
    }

    private func failure(_ what: String) -> ListReadFailure {
        let detail = archive_error_string(archive).map { String(cString: $0) }
        return ListReadFailure(reason: detail.map { "\(what): \($0)" } ?? what)
    }
}
