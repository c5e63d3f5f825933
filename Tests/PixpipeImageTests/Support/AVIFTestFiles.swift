import Foundation

@testable import PixpipeImage

/// Small AVIF files made with the package's encoder, and byte surgery on them, for the AVIF tests.
enum AVIFTestFiles {
    /// Fast, good enough settings for test files.
    static let options = AVIFEncodeOptions(quality: 80, speed: 10)

    /// A smooth still image.
    static func still(width: Int = 64, height: Int = 48, format: PixelFormat = .rgb8) throws -> Data {
        try SyntheticImages.smooth(width: width, height: height, format: format).encoded(as: .avif(options))
    }

    /// An image sequence of `count` frames (each a different shade), `milliseconds` each.
    static func sequence(count: Int, width: Int = 32, height: Int = 24, milliseconds: Int = 100) throws -> Data {
        let frames = (0..<count).map { index in
            AnimationFrame(
                index: index,
                image: SyntheticImages.constant(
                    width: width, height: height, format: .rgb8, value: 40 + 50 * index, alpha: 255),
                duration: .milliseconds(milliseconds))
        }
        return try ImageEncoding.avif(options).encodeAnimation(frames)
    }

    /// `data` with the width and height of every `ispe` box set to `width` x `height`.
    static func withDeclaredSize(_ data: Data, width: UInt32, height: UInt32) -> Data {
        var bytes = [UInt8](data)
        let tag = Array("ispe".utf8)
        var index = 0
        while index + 16 <= bytes.count {
            if Array(bytes[index..<(index + 4)]) == tag {
                // type (4), version and flags (4), width (4), height (4)
                bytes.replaceSubrange((index + 8)..<(index + 12), with: PNGBytes.bigEndian(width))
                bytes.replaceSubrange((index + 12)..<(index + 16), with: PNGBytes.bigEndian(height))
            }
            index += 1
        }
        return Data(bytes)
    }

    /// `sequence` rewritten to declare `frames` samples of 16 bytes each in its one chunk (`stsz`, `stts`
    /// and `stsc` patched), as a frame-count bomb does; the samples themselves are not there.
    static func withDeclaredFrames(_ sequence: Data, frames: UInt32) -> Data {
        var bytes = [UInt8](sequence)
        func patch(_ tag: String, at offset: Int, _ value: UInt32) {
            let type = Array(tag.utf8)
            guard let start = (0..<(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == type }) else {
                return
            }
            bytes.replaceSubrange((start + offset)..<(start + offset + 4), with: PNGBytes.bigEndian(value))
        }
        patch("stsz", at: 8, 16)  // one sample size for all
        patch("stsz", at: 12, frames)
        patch("stts", at: 12, frames)  // the first (only) run of equal durations
        patch("stsc", at: 16, frames)  // samples in the first chunk
        return Data(bytes)
    }

    /// A corpus file's bytes.
    static func corpus(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: Corpora.path("avif", name)))
    }
}
