#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Follows a JPEG's marker structure over a growing prefix of its bytes, and says where the last
/// complete scan ends, without decoding anything.
///
/// Resumable: each ``advance(_:)`` continues where the previous stopped, so feeding every prefix of an
/// n-byte file costs O(n) in total. A scan is complete once the marker that follows its entropy-coded
/// data has arrived (RSTn, stuffed `FF 00` and fill bytes do not end a scan).
struct JPEGScanTracker: Sendable, Hashable {
    /// Where the tracker is in the stream.
    enum State: Sendable, Hashable {
        /// Before the SOI marker.
        case start
        /// At a marker between segments, at this offset.
        case segments(Int)
        /// Inside a scan's entropy-coded data, scanned up to this offset.
        case entropy(Int)
        /// The EOI marker was read: nothing more to follow.
        case finished
    }

    /// Where the tracker is.
    private(set) var state = State.start
    /// Whether the frame header (SOF2 or SOF10) says the file is progressive; `nil` before it is read.
    private(set) var isProgressive: Bool?
    /// The frame's width from the SOF segment; 0 before it is read.
    private(set) var width = 0
    /// The frame's height from the SOF segment; 0 before it is read.
    private(set) var height = 0
    /// Scans whose entropy-coded data ended in the bytes seen so far.
    private(set) var completeScans = 0
    /// The offset just past the last complete scan (where its following marker starts).
    private(set) var completeScansEnd = 0

    /// Reads as far into `bytes` (the whole prefix so far, never shorter than the previous one) as it
    /// can. Throws ``ImageDecodingError/corrupt(format:reason:)`` when the marker structure is broken.
    mutating func advance(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) {
        while true {
            switch state {
            case .finished:
                return
            case .start:
                guard bytes.count >= 2 else { return }
                guard bytes[0] == 0xFF, bytes[1] == 0xD8 else {
                    // Not a JPEG (another format): nothing to follow, and nothing wrong either.
                    isProgressive = false
                    state = .finished
                    return
                }
                state = .segments(2)
            case .segments(let offset):
                guard let next = try readSegment(bytes, at: offset) else { return }
                state = next
            case .entropy(let offset):
                guard let marker = Self.nextMarker(bytes, from: offset) else {
                    // Keep the last byte if it is 0xFF: its partner has not arrived yet.
                    let end = bytes.count > offset && bytes[bytes.count - 1] == 0xFF ? bytes.count - 1 : bytes.count
                    state = .entropy(max(offset, end))
                    return
                }
                completeScans += 1
                completeScansEnd = marker
                state = .segments(marker)
            }
        }
    }

    /// Reads the marker segment at `offset`; the state after it, or nil when more bytes are needed.
    private mutating func readSegment(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(ImageDecodingError)
        -> State?
    {
        var position = offset
        guard position < bytes.count else { return nil }
        guard bytes[position] == 0xFF else { throw corrupt("expected a marker at byte \(offset)") }
        // Any number of 0xFF fill bytes may precede a marker code.
        while position < bytes.count, bytes[position] == 0xFF { position += 1 }
        guard position < bytes.count else { return nil }
        let code = bytes[position]
        let afterCode = position + 1
        switch code {
        case 0xD9:
            return .finished
        case 0x01, 0xD0...0xD8:
            return .segments(afterCode)
        case 0x00:
            throw corrupt("stuffed zero between segments at byte \(position)")
        default:
            break
        }
        guard afterCode + 2 <= bytes.count else { return nil }
        let length = Int(bytes[afterCode]) << 8 | Int(bytes[afterCode + 1])
        guard length >= 2 else { throw corrupt("marker segment length \(length) at byte \(afterCode)") }
        let end = afterCode + length
        if Self.isFrameHeader(code) {
            guard afterCode + 7 <= bytes.count else { return nil }
            isProgressive = code == 0xC2 || code == 0xCA
            height = Int(bytes[afterCode + 3]) << 8 | Int(bytes[afterCode + 4])
            width = Int(bytes[afterCode + 5]) << 8 | Int(bytes[afterCode + 6])
        }
        if code == 0xDA {
            guard isProgressive != nil else { throw corrupt("scan before the frame header") }
            return .entropy(end)
        }
        return .segments(end)
    }

    /// SOF0...SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    static func isFrameHeader(_ code: UInt8) -> Bool {
        (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
    }

    /// The offset of the first marker (0xFF then a code other than 00, FF or RSTn) at or after `from`.
    ///
    /// Each 0xFF is found with `memchr`: entropy-coded data is most of a file, and a vectorized search
    /// through it costs a fraction of a byte-by-byte loop (the 1/8 scan filter reads whole 24 MP files).
    static func nextMarker(_ bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = from
        while index + 1 < bytes.count {
            guard let found = memchr(base + index, 0xFF, bytes.count - 1 - index) else { return nil }
            index = UnsafeRawPointer(found) - base
            let code = bytes[index + 1]
            if code == 0x00 || (0xD0...0xD7).contains(code) {
                index += 2
            } else if code == 0xFF {
                index += 1
            } else {
                return index
            }
        }
        return nil
    }

    private func corrupt(_ reason: String) -> ImageDecodingError { .corrupt(format: .jpeg, reason: reason) }
}
