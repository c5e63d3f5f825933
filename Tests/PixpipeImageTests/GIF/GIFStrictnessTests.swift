import Foundation
import Testing

@testable import PixpipeImage

/// GIF under damage: truncation loses pixels (strict: `.truncated`; lenient: the frames
/// complete so far), a missing trailer after a whole frame is benign, LZW damage is `.corrupt`.
@Suite("GIF: truncation, damage and the missing trailer")
struct GIFStrictnessTests {
    static let lenient = DecodeOptions(strictness: .lenient)

    /// Three frames (one interlaced, one local table, one transparent), 9x7, with a loop extension.
    static let writer: GIFWriter = {
        let palette: [GIFWriter.Color] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
        var writer = GIFWriter(width: 9, height: 7, palette: palette)
        writer.loop(repeats: 0)
        writer.control(disposal: 1, delay: 5)
        writer.frame(width: 9, height: 7, indices: (0..<63).map { UInt8($0 % 3) })
        writer.control(disposal: 2, delay: 5)
        writer.frame(
            left: 2, top: 1, width: 5, height: 5, indices: (0..<25).map { UInt8($0 % 4) },
            palette: [(9, 9, 9), (90, 90, 90), (180, 180, 180), (250, 250, 250)], interlaced: true)
        writer.control(disposal: 3, delay: 5, transparentIndex: 3)
        writer.frame(left: 4, top: 3, width: 6, height: 5, indices: (0..<30).map { UInt8($0 % 4) })
        writer.trailer()
        return writer
    }()

    static let whole = writer.bytes

    /// The whole file's frames.
    static let wholeFrames: [AnimationFrame] = (try? AnimationReader(data: Data(whole)).allFrames()) ?? []

    /// How many frames end (with their block terminator) at or before `offset`.
    static func framesComplete(before offset: Int) -> Int {
        writer.imageData.filter { $0.upperBound <= offset }.count
    }

    /// The frames a reader gives, or the error that stopped it.
    static func read(_ bytes: [UInt8], _ options: DecodeOptions = .init()) -> Result<
        [AnimationFrame], ImageDecodingError
    > {
        Result { () throws(ImageDecodingError) in try AnimationReader(data: Data(bytes), options: options).allFrames() }
    }

    @Test func theWholeFileDecodes() throws {
        #expect(Self.wholeFrames.count == 3)
        #expect(Self.wholeFrames.allSatisfy { $0.image.metadata.warnings.isEmpty })
        #expect(try Image.verify(data: Data(Self.whole)).animation?.frameCount == 3)
    }

    @Test("Cut at every offset: strict refuses lost pixels, lenient keeps the frames complete so far")
    func truncationAtEveryOffset() throws {
        let headerEnd = Self.writer.recordBoundaries[0]
        for cut in 6..<(Self.whole.count - 1) {
            let bytes = Array(Self.whole[..<cut])
            let complete = Self.framesComplete(before: cut)
            let strict = Self.read(bytes)
            let lenient = Self.read(bytes, Self.lenient)
            let still = Result { () throws(ImageDecodingError) in try Image(data: Data(bytes)) }
            let lenientStill = Result { () throws(ImageDecodingError) in
                try Image(data: Data(bytes), options: Self.lenient)
            }
            if cut < headerEnd {
                for result in [strict, lenient] { #expect(result.failure?.case == .truncated, "cut \(cut)") }
                continue
            }
            if Self.writer.recordBoundaries.contains(cut) {
                // A record boundary: benign after a whole frame; with no frame yet, nothing to show.
                if complete == 0 {
                    #expect(strict.failure?.case == .truncated, "cut \(cut)")
                    #expect(still.failure?.case == .truncated, "cut \(cut)")
                    continue
                }
                for result in [strict, lenient] {
                    let frames = try #require(try? result.get(), "cut \(cut): \(String(describing: result.failure))")
                    #expect(frames.count == complete, "cut \(cut)")
                    #expect(frames.map(\.image.pixels) == Self.wholeFrames.prefix(complete).map(\.image.pixels))
                    #expect(frames.allSatisfy { $0.image.metadata.warnings.map(\.kind) == [.benign] }, "cut \(cut)")
                }
                #expect((try? still.get())?.metadata.warnings.count == 1, "cut \(cut)")
                continue
            }
            #expect(strict.failure?.case == .truncated, "cut \(cut): \(String(describing: strict.failure))")
            #expect(still.failure?.case == .truncated, "cut \(cut)")
            if complete > 0 {
                let frames = try #require(try? lenient.get(), "cut \(cut)")
                #expect(frames.count == complete, "cut \(cut)")
                #expect(frames.map(\.image.pixels) == Self.wholeFrames.prefix(complete).map(\.image.pixels))
                #expect(frames.last?.image.metadata.warnings.map(\.kind) == [.truncated], "cut \(cut)")
                #expect(frames.last?.image.metadata.warnings.map(\.code) == ["gif-truncated"], "cut \(cut)")
                #expect(frames.dropLast().allSatisfy { $0.image.metadata.warnings.isEmpty }, "cut \(cut)")
                let image = try #require(try? lenientStill.get(), "cut \(cut)")
                #expect(image.pixels == Self.wholeFrames[0].image.pixels)
                #expect(image.metadata.warnings.map(\.kind) == [.truncated], "cut \(cut)")
            } else if cut > Self.writer.imageData[0].lowerBound {
                // Inside the first frame's data: the rows drawn so far, as PNG and JPEG show a cut image.
                let frames = try #require(try? lenient.get(), "cut \(cut)")
                #expect(frames.count == 1 && frames[0].image.metadata.warnings.map(\.kind) == [.truncated])
                #expect((try? lenientStill.get())?.metadata.warnings.map(\.kind) == [.truncated], "cut \(cut)")
            } else {
                #expect(lenient.failure?.case == .truncated, "cut \(cut)")
                #expect(lenientStill.failure?.case == .truncated, "cut \(cut)")
            }
        }
    }

    @Test("Without its trailer the file decodes whole in both modes, with a warning")
    func missingTrailer() throws {
        let cut = Array(Self.whole.dropLast())
        for options in [DecodeOptions(), Self.lenient] {
            let frames = try AnimationReader(data: Data(cut), options: options).allFrames()
            #expect(frames.map(\.image.pixels) == Self.wholeFrames.map(\.image.pixels))
            let image = try Image(data: Data(cut), options: options)
            #expect(image.pixels == Self.wholeFrames[0].image.pixels)
            let warning = try #require(image.metadata.warnings.first)
            #expect(warning.message.contains("trailer"))
            #expect(try Image.verify(data: Data(cut), options: options).metadata.warnings == [warning])
        }
        #expect(try Image.info(data: Data(cut)).metadata.warnings.count == 1)
        #expect(try Image.info(data: Data(Self.whole)).metadata.warnings.isEmpty)
    }

    /// The file with a damaged code in the middle of frame `frame`'s LZW data: it reads as the end code, so
    /// the data ends before the frame's pixels do (giflib: `D_GIF_ERR_EOF_TOO_SOON`). giflib does not notice
    /// every damaged byte: a code naming no table entry yet decodes to wrong pixels without an error.
    static func damaged(frame: Int) -> [UInt8] {
        let clean = writer.imageData[frame]
        let code = 1 + storedIndices(frame).count / 2
        // Rebuild the frame's data with that one code damaged; the frames around it keep their bytes.
        var bytes = whole
        var lzw = GIFWriter.literalLZW(storedIndices(frame), codeSize: 8, damagedCode: code)
        let original = GIFWriter.literalLZW(storedIndices(frame), codeSize: 8)
        precondition(lzw.count == original.count && original.count < 255)
        lzw.insert(UInt8(lzw.count), at: 0)
        bytes.replaceSubrange((clean.lowerBound + 1)..<(clean.upperBound - 1), with: lzw)
        return bytes
    }

    /// Frame `frame`'s indices in stored order, as ``writer`` wrote them.
    static func storedIndices(_ frame: Int) -> [UInt8] {
        switch frame {
        case 0: (0..<63).map { UInt8($0 % 3) }
        default:
            GIFWriter.storedRows(height: 5, interlaced: true).flatMap { row in
                (0..<5).map { UInt8((row * 5 + $0) % 4) }
            }
        }
    }

    @Test("LZW damage giflib reports is corrupt; the walk behind info does not decode it")
    func damagedData() throws {
        let second = Self.damaged(frame: 1)
        let strict = Self.read(second)
        #expect(strict.failure?.case == .corrupt, "\(String(describing: strict.failure))")
        let verify = Result { () throws(ImageDecodingError) in try Image.verify(data: Data(second)) }
        #expect(verify.failure?.case == .corrupt)
        // The first frame is whole, and only its own LZW data is decoded for the image.
        #expect(try Image(data: Data(second)).pixels == Self.wholeFrames[0].image.pixels)
        #expect(try Image.info(data: Data(second)).animation?.frameCount == 3)
        let frames = try AnimationReader(data: Data(second), options: Self.lenient).allFrames()
        #expect(frames.count == 1)
        #expect(frames[0].image.metadata.warnings.map(\.kind) == [.corrupt])

        let first = Self.damaged(frame: 0)
        let error = #expect(throws: ImageDecodingError.self) { try Image(data: Data(first)) }
        #expect(error?.case == .corrupt)
        let shown = try Image(data: Data(first), options: Self.lenient)
        #expect(shown.metadata.warnings.map(\.kind) == [.corrupt])
    }

    @Test("An unknown record type is corrupt")
    func unknownRecord() throws {
        var bytes = Self.whole
        bytes[bytes.count - 1] = 0x99
        let strict = Self.read(bytes)
        #expect(strict.failure?.case == .corrupt)
        let frames = try AnimationReader(data: Data(bytes), options: Self.lenient).allFrames()
        #expect(frames.count == 3 && frames[2].image.metadata.warnings.map(\.kind) == [.corrupt])
    }
}

extension Result {
    /// The error, or `nil` on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
