import Foundation
import Testing

@testable import PixpipeImage

/// The GIF test suite: every frame of every file, composited on the full canvas, matches the browser
/// rendering's samples exactly (`gif/references.tsv`, RGBA SHA-256).
@Suite(.enabled(if: Corpora.isAvailable, "PIXPIPE_CORPORA is not set"))
struct GIFConformanceTests {
    /// Every frame's reference, in file order.
    static let references = SampleReference.load("gif")

    /// The files the references name.
    static let files = Array(Set(references.map(\.file))).sorted()

    @Test func theCorpusIsPresent() {
        #expect(Self.files.count == 13)
        #expect(Self.references.count == 46)
        #expect(Corpora.files(in: "gif") { $0.hasSuffix(".gif") }.count == Self.files.count)
    }

    @Test(arguments: files)
    func everyFrameMatchesTheBrowser(file: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Corpora.path("gif", file)))
        let expected = Self.references.filter { $0.file == file }.sorted { $0.frame < $1.frame }
        let reader = try AnimationReader(data: data)
        #expect(reader.format == .gif)
        #expect(reader.frameCount == expected.count)
        let frames = try reader.allFrames()
        try #require(frames.count == expected.count)
        for (frame, reference) in zip(frames, expected) {
            #expect(frame.index == reference.frame)
            #expect(frame.image.width == reference.width && frame.image.height == reference.height)
            #expect(SampleDigest.rgba8(frame.image) == reference.digest, "\(reference)")
            #expect(frame.image.metadata.warnings.isEmpty)
        }
    }

    @Test(arguments: files)
    func theFirstFrameIsTheImage(file: String) throws {
        let path = Corpora.path("gif", file)
        let image = try Image(contentsOfFile: path)
        let first = try #require(Self.references.first { $0.file == file && $0.frame == 0 })
        #expect(SampleDigest.rgba8(image) == first.digest)
        #expect(image.metadata.sourceFormat == .gif)
        let info = try Image.info(contentsOfFile: path)
        #expect(info.format == .gif && info.width == first.width && info.height == first.height)
        let frames = Self.references.filter { $0.file == file }.count
        #expect(info.animation?.frameCount == (frames > 1 ? frames : nil))
        let verified = try Image.verify(data: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(verified.metadata.warnings.isEmpty)
    }

    @Test func loopCountsAndDelays() throws {
        func info(_ file: String) throws -> AnimationInfo? {
            try Image.info(contentsOfFile: Corpora.path("gif", file)).animation
        }
        #expect(try info("animated_loop.gif")?.loopCount == 0)
        #expect(try info("animated_noloop.gif")?.loopCount == 1)
        let variable = try AnimationReader(
            data: Data(contentsOf: URL(fileURLWithPath: Corpora.path("gif", "animated_loop_variable_delay.gif"))))
        let durations = try variable.allFrames().map(\.duration)
        #expect(Set(durations).count > 1, "\(durations)")
        let total = try #require(try info("animated_loop_variable_delay.gif")?.duration)
        #expect(total == durations.reduce(.zero, +))
        #expect(
            try Image.info(contentsOfFile: Corpora.path("gif", "animated_loop_interlaced.gif")).metadata.isInterlaced)
    }
}
