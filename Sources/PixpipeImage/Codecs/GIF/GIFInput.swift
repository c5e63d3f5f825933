import CLibGIF
import Foundation

/// The bytes giflib reads through its input callback (`DGifOpen` with a read function and user data).
///
/// It either borrows a buffer the caller keeps alive for the whole read (``Image/info(data:options:)``,
/// ``Image/init(data:options:)``) or owns a copy (the frame decoder, which outlives its caller's buffer).
/// It remembers whether giflib asked for bytes past the end, which is how a read failure is told apart as
/// truncation rather than damage.
final class GIFInput {
    /// The bytes.
    let bytes: UnsafeRawBufferPointer
    /// The next byte giflib reads.
    private(set) var offset = 0
    /// Whether a read asked for more bytes than were left: the file ends early.
    private(set) var ranPastEnd = false
    private let owned: UnsafeMutableRawBufferPointer?

    /// Reads `bytes`, which must stay valid while this input is used.
    init(borrowing bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        owned = nil
    }

    /// Reads a private copy of `data`.
    init(copying data: Data) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 1)
        data.withUnsafeBytes { source in
            if let base = source.baseAddress { copy.baseAddress!.copyMemory(from: base, byteCount: source.count) }
        }
        owned = copy
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(copy)[0..<data.count])
    }

    deinit { owned?.deallocate() }

    /// Starts over from the first byte, for a new giflib handle.
    func rewind() {
        offset = 0
        ranPastEnd = false
    }

    /// Whether every byte has been read (a record that starts here is missing).
    var isAtEnd: Bool { offset >= bytes.count }

    /// Copies up to `count` bytes into `destination`; returns how many it copied.
    func read(into destination: UnsafeMutablePointer<GifByteType>, count: Int) -> Int {
        let available = min(max(count, 0), bytes.count - offset)
        if available < count { ranPastEnd = true }
        guard available > 0, let base = bytes.baseAddress else { return 0 }
        UnsafeMutableRawPointer(destination).copyMemory(from: base + offset, byteCount: available)
        offset += available
        return available
    }

    /// giflib's `InputFunc`: finds the input through the file's user data. Captures nothing.
    static let readFunction: InputFunc = { file, destination, count in
        guard let file, let destination, let user = file.pointee.UserData else { return 0 }
        let input = Unmanaged<GIFInput>.fromOpaque(user).takeUnretainedValue()
        return Int32(input.read(into: destination, count: Int(count)))
    }
}
