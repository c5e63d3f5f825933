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

    /// A corpus file's bytes.
    static func corpus(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: Corpora.path("avif", name)))
    }
}
