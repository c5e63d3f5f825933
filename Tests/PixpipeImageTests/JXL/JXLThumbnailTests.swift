import Foundation
import PixpipeTestSupport
import Testing

@testable import PixpipeImage

@Suite("JPEG XL thumbnails from the DC image")
struct JXLThumbnailTests {
    @Test("a thumbnail of at most 1/8 comes from the DC image, close to the one from a full decode")
    func dcThumbnail() throws {
        let source = JXLTestFiles.gradient(width: 512, height: 384)
        let data = try source.encoded(as: .jxl(quality: 90))
        let dc = try data.withTypedBytes { (bytes) throws(ImageDecodingError) in
            try JXLCodec.dcImage(bytes, options: DecodeOptions())
        }
        #expect(dc.width == 64 && dc.height == 48)
        let thumbnail = try Thumbnailer(.init(size: .box(64))).thumbnail(data: data)
        #expect(thumbnail.width == 64 && thumbnail.height == 48)
        let full = try Image(data: data).resized(width: 64, height: 48)
        #expect(thumbnail.psnr(full) > 30, "\(thumbnail.psnr(full))")
        // Lossless (modular) files have no DC stage: the whole image comes back.
        let lossless = try JXLTestFiles.still(width: 64, height: 48)
        let whole = try lossless.withTypedBytes { (bytes) throws(ImageDecodingError) in
            try JXLCodec.dcImage(bytes, options: DecodeOptions())
        }
        #expect(whole.pixels == JXLTestFiles.gradient().pixels)
    }

    /// Measures the DC path against a full decode on the file `PIXPIPE_JXL_BENCH` names (a 12 MP lossy JXL).
    @Test(
        "timing: DC image vs full decode",
        .enabled(if: ProcessInfo.processInfo.environment["PIXPIPE_JXL_BENCH"] != nil))
    func timing() throws {
        let path = try #require(ProcessInfo.processInfo.environment["PIXPIPE_JXL_BENCH"])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        for _ in 0..<3 {
            let dcWatch = CPUStopwatch()
            let dc = try data.withTypedBytes { (bytes) throws(ImageDecodingError) in
                try JXLCodec.dcImage(bytes, options: DecodeOptions())
            }
            let dcTime = (dcWatch.wallTime, dcWatch.cpuTime)
            let fullWatch = CPUStopwatch()
            let full = try Image(data: data)
            print(
                "jxl timing: DC \(dc.width)x\(dc.height) \(dcTime.0) wall \(dcTime.1) CPU; full \(full.width)x\(full.height) \(fullWatch.wallTime) wall \(fullWatch.cpuTime) CPU"
            )
        }
    }
}
