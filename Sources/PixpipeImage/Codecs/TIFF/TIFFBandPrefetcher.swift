import Foundation

/// A page's rows read one band ahead on a thread of their own, so that libtiff decodes the next strip while
/// the resize works through this one.
///
/// Decoding the strips (LZW, Deflate) and resizing them are each a large share of a huge TIFF's thumbnail,
/// and each runs on one core; overlapping them makes the thumbnail take about as long as the larger of the
/// two instead of their sum. Two band-sized slots take turns: the reading thread fills one while the caller
/// reads the other, so memory grows by two bands (``worthwhile(bandBytes:height:bandHeight:)`` keeps
/// that small). Rows are served in increasing order, as ``TIFFRowBand/row(_:)`` serves them, and a row's
/// bytes stay valid until a row of a later band is asked for.
///
/// The rows come from a ``TIFFRowBand``, which the reading thread alone uses from ``start()`` to
/// ``finish()``; after ``finish()`` it is the caller's again, positioned after the last band read, so
/// ``TIFFRowBand/readRemainingRows()`` and its failures work as without a prefetcher.
final class TIFFBandPrefetcher: @unchecked Sendable {
    // @unchecked Sendable: the instance is shared by the caller and one reading thread. `band` (and the
    // libtiff handle under it) is touched only by the reading thread between start() and finish(), and only
    // by the caller after finish() has seen the thread end, under `condition`'s lock. Slot k % 2 is written
    // by the reading thread only while band k is neither filled nor released (k - released < 2, k >= ready)
    // and read by the caller only while band k is filled and not released; `ready` and `released` change
    // only under the lock, whose release and acquire order every write of a slot before its reads.

    /// Rows per band: the band's RowsPerStrip or TileLength.
    private let bandHeight: Int
    private let height: Int
    private let rowBytes: Int
    private let band: TIFFRowBand
    private let slots: [UnsafeMutableRawBufferPointer]
    private let condition = NSCondition()
    /// Bands filled by the reading thread (under `condition`).
    private var ready = 0
    /// Bands the caller is done with (under `condition`).
    private var released = 0
    /// Set by ``finish()``: the reading thread stops before its next band (under `condition`).
    private var stopping = false
    /// Set by the reading thread as it ends (under `condition`).
    private var ended = false
    /// The band the caller reads now; the caller's alone.
    private var current = -1

    /// Whether reading ahead pays for its thread and its two slots: a page of several bands of modest size.
    static func worthwhile(bandBytes: Int, height: Int, bandHeight: Int) -> Bool {
        height >= 4 * bandHeight && bandBytes <= 16 << 20 && bandBytes * (height / bandHeight) >= 8 << 20
    }

    /// A prefetcher of `band`'s rows; `rowBytes` is a converted row's size, `height` the page's rows.
    init(band: TIFFRowBand, height: Int, rowBytes: Int) {
        self.band = band
        self.height = height
        self.rowBytes = rowBytes
        bandHeight = band.bandHeight
        slots = (0..<2).map { _ in .allocate(byteCount: max(1, band.bandHeight * rowBytes), alignment: 16) }
    }

    deinit {
        for slot in slots { slot.deallocate() }
    }

    /// Starts the reading thread.
    func start() {
        let thread = Thread { [self] in readBands() }
        thread.name = "pixpipe-tiff-read"
        thread.start()
    }

    /// The converted bytes of row `index`, which must not be before the current band.
    func row(_ index: Int) -> UnsafeRawPointer {
        let wanted = index / bandHeight
        precondition(wanted >= current && index < height, "rows are read forward only")
        if wanted > current {
            condition.lock()
            released = wanted
            condition.broadcast()
            while ready <= wanted { condition.wait() }
            condition.unlock()
            current = wanted
        }
        return UnsafeRawPointer(slots[wanted % 2].baseAddress!) + (index - wanted * bandHeight) * rowBytes
    }

    /// Stops the reading thread before its next band and waits for it to end; the band is the caller's again.
    func finish() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !ended { condition.wait() }
        condition.unlock()
    }

    private func readBands() {
        let bands = (height + bandHeight - 1) / bandHeight
        for index in 0..<bands {
            condition.lock()
            while index - released >= 2 && !stopping { condition.wait() }
            let stop = stopping
            condition.unlock()
            if stop { break }
            let first = index * bandHeight
            let slot = slots[index % 2].baseAddress!
            for row in 0..<min(bandHeight, height - first) {
                (slot + row * rowBytes).copyMemory(from: band.row(first + row), byteCount: rowBytes)
            }
            condition.lock()
            ready = index + 1
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }
}
