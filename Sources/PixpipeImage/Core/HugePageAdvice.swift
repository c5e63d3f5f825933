#if canImport(Glibc)
    import Glibc
#endif

/// Asks the kernel to back a large, freshly allocated pixel buffer with transparent huge pages.
///
/// A decoder writes every byte of its output once, so a 6-megapixel RGB image takes about 4,600 page
/// faults of 4 KiB; on virtual machines each fault is expensive, and scripts/bench measured them at a
/// quarter of a full-size JPEG decode. With 2 MiB pages the same buffer takes ten faults. Only the
/// 2 MiB-aligned inside of the buffer is advised, so no page reaches outside it; the advice changes
/// nothing but speed, and is ignored where huge pages are off or unavailable.
///
/// Only the JPEG decoder asks for it, for its output here and, in the C shim, for the whole-image
/// coefficient arrays libjpeg allocates for progressive files (`pxp_jpeg_advise_block_arrays`). Measured on the reference VM, quiet, one decode per process of a
/// 24 MP file, six alternated runs: JPEG 0.16 s median with the advice against 0.19 s without (but one run
/// in six took 0.56 s); lossy WebP 0.79 s with against 0.57 s without, and its kernel time varied tenfold.
/// So the WebP and PNG decoders leave their buffers alone.
enum HugePageAdvice {
    /// Buffers smaller than this are left alone: they hold at most one huge page.
    static let minimumBytes = 4 << 20

    /// Advises the aligned inside of `buffer`; call it before the buffer is first written.
    static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
            guard buffer.count >= minimumBytes, let base = buffer.baseAddress else { return }
            let hugePage = UInt(2 << 20)
            let start = (UInt(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
            let end = (UInt(bitPattern: base) + UInt(buffer.count)) & ~(hugePage - 1)
            guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(aligned, Int(end - start), MADV_HUGEPAGE)
        #endif
    }
}
