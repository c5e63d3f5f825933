import CPixpipeTIFF

/// One libtiff handle over bytes that outlive it, with the errors and warnings libtiff reported to it.
///
/// libtiff's allocation limit is set from the pixel limit, so that even libtiff's own buffers (a huge
/// strip, a strip-offset array) are refused before they exist.
final class TIFFHandle {
    let handle: OpaquePointer
    /// The file's bytes, which outlive the handle.
    let bytes: UnsafeRawBufferPointer
    /// The current directory's description.
    private(set) var page: pxp_tiff_page
    /// The current directory's index in the main chain.
    private(set) var pageIndex = 0

    /// Opens `bytes` and reads the first directory; throws the typed error for libtiff's refusal.
    ///
    /// `isFileMapping` says that `bytes` are a read-only private mapping of a file
    /// (``ThumbnailSourceFile/withMapping(_:)``): the pages of each strip or tile are then given back after
    /// it is read, so resident memory stays small however large the file.
    init(bytes: UnsafeRawBufferPointer, pixelLimit: Int?, isFileMapping: Bool = false) throws(ImageDecodingError) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw .truncated(format: .tiff, reason: "no data")
        }
        // One allocation may hold the largest image the limit allows at 16 bits and 4 channels (a whole
        // strip or the RGBA raster); libtiff's 256 MiB default otherwise.
        let maxAllocation = pixelLimit.map { Int64(min(max($0, 1 << 20), Int.max / 8) * 8) } ?? 0
        let open = isFileMapping ? pxp_tiff_open_mapping : pxp_tiff_open_memory
        guard let opened = open(base, bytes.count, maxAllocation) else {
            let reason = pxp_tiff_load_error().map { String(cString: $0) } ?? "out of memory"
            throw .unsupportedFeature(format: .tiff, feature: reason)
        }
        handle = opened
        self.bytes = bytes
        page = pxp_tiff_page()
        guard pxp_tiff_is_open(opened) != 0 else {
            // Every property is set, so the throw runs deinit, which closes the handle.
            throw TIFFWarningTable.openError(message: errorMessage ?? "libtiff refused the file", bytes: bytes)
        }
        pxp_tiff_read_page(opened, &page)
    }

    deinit { pxp_tiff_close(handle) }

    /// The first error libtiff reported since the last ``clearError()``.
    var errorMessage: String? { pxp_tiff_error(handle).map { String(cString: $0) } }

    /// The last warning libtiff reported, if any.
    var lastWarning: String? {
        let count = pxp_tiff_warning_count(handle)
        return count > 0 ? pxp_tiff_warning(handle, count - 1).map { String(cString: $0) } : nil
    }

    /// Forgets the recorded error.
    func clearError() { pxp_tiff_clear_error(handle) }

    /// The warnings libtiff reported since the last ``takeWarnings()``, classified, and forgotten.
    func takeWarnings() -> [DecodeWarning] {
        var warnings = (0..<pxp_tiff_warning_count(handle)).compactMap { index in
            pxp_tiff_warning(handle, index).map { TIFFWarningTable.libraryWarning.warning(String(cString: $0)) }
        }
        let dropped = Int(pxp_tiff_warning_overflow(handle))
        if dropped > 0 { warnings.append(TIFFWarningTable.moreWarnings.warning("\(dropped) more libtiff warnings")) }
        pxp_tiff_clear_warnings(handle)
        return warnings
    }

    /// Makes page `index` current, reading forward when it is the next one (libtiff's `TIFFSetDirectory`
    /// walks the chain from its start).
    func select(page index: Int) throws(ImageDecodingError) {
        guard index != pageIndex else { return }
        clearError()
        let ok =
            index == pageIndex + 1 ? pxp_tiff_read_directory(handle) : pxp_tiff_set_directory(handle, UInt32(index))
        guard ok != 0 else {
            throw .corrupt(format: .tiff, reason: errorMessage ?? "page \(index) could not be read")
        }
        pageIndex = index
        pxp_tiff_read_page(handle, &page)
    }

    /// Has libjpeg convert a JPEG-compressed YCbCr page to RGB, and reads the page's sizes again.
    func convertJPEGToRGB() {
        _ = pxp_tiff_set_jpeg_rgb(handle)
        pxp_tiff_read_page(handle, &page)
    }
}
