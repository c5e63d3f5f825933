import Foundation
import Testing

@testable import PixpipeImage

/// What every decoding codec of the table promises, checked for each one it holds (``ImageCodecs/all``),
/// so that a codec gets these checks by being registered: sniffing picks it, `info` agrees with a decode,
/// a cut file is refused in strict mode and read or refused (never a crash) in lenient mode, the pixel
/// limit is applied from the header, every file of its corpus and every committed fuzz regression input of
/// its format (`Fixtures/fuzz`) ends in an image or a typed error, and every warning a decode of a cut or
/// corpus file carries is a row of the codec's warning table.
///
/// Samples: an image the codec encodes itself when it can, else the first few files of its corpus
/// (`$PIXPIPE_CORPORA/<corpus folder>`) that sniff as its format.
@Suite("Codec contract")
struct CodecContractTests {
    /// Every format the table decodes.
    static let decodableFormats: [ImageFormat] = ImageCodecs.all.filter(\.canDecode).map(\.format)

    /// Limits that keep a huge corpus file from costing the test more than a few tens of megabytes.
    static let boundedOptions = DecodeOptions(
        pixelLimit: 1 << 22, byteLimit: 1 << 26, frameLimit: 16, animationPixelLimit: 1 << 24)

    /// The samples of `format`, named for messages.
    static func samples(of format: ImageFormat) -> [(name: String, data: Data)] {
        if let codec = ImageCodecs.codec(for: format), codec.canEncode,
            let encoding = codec.standardEncoding(StandardEncodeSettings(quality: 90))
        {
            // With alpha where the format stores it, else without.
            for pixelFormat in [PixelFormat.rgba8, .rgb8] {
                let image = TestImages.noise(width: 37, height: 23, format: pixelFormat)
                if let data = try? image.encoded(as: encoding) { return [("encoded 37x23 \(pixelFormat)", data)] }
            }
        }
        return corpusFiles(of: format).prefix(3).map { ($0.name, $0.data) }
    }

    /// The corpus files of `format` that sniff as it (notes and reference tables left out).
    static func corpusFiles(of format: ImageFormat) -> [(name: String, data: Data)] {
        Corpora.files(in: format.corpusFolder).compactMap { name in
            guard let data = FileManager.default.contents(atPath: Corpora.path(format.corpusFolder, name)),
                ImageFormat.sniff(data) == format
            else { return nil }
            return (name, data)
        }
    }

    /// Expects every one of `warnings` to be a row of `format`'s warning table (or of the rows no codec
    /// owns), with the row's kind: what users read in `--json` and the manifest is always a listed code.
    /// A codec a library user registers is left out: its warnings are of its own making.
    static func expectTabled(
        _ warnings: [DecodeWarning], of format: ImageFormat, _ context: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard ImageCodecs.builtIn.contains(where: { $0.format == format }) else { return }
        let rules = (ImageCodecs.codec(for: format)?.warningRules ?? []) + SharedWarningTable.rows
        for warning in warnings {
            let row = rules.first { $0.code == warning.code }
            #expect(
                row?.kind == warning.kind, "\(context()): \(warning) is no row of the \(format) table",
                sourceLocation: sourceLocation)
        }
    }

    @Test("the table has a decodable format and a corpus folder for each")
    func tableIsNotEmpty() {
        #expect(!Self.decodableFormats.isEmpty)
        for format in Self.decodableFormats { #expect(!format.corpusFolder.isEmpty) }
    }

    /// Every format the table encodes with a quality.
    static let qualityFormats: [ImageFormat] = ImageCodecs.all.filter { $0.canEncode && $0.usesQuality }.map(\.format)

    @Test("a codec's default quality is the one its encoder uses when none is given", arguments: qualityFormats)
    func defaultQualityIsUsed(format: ImageFormat) throws {
        let codec = try #require(ImageCodecs.codec(for: format))
        let quality = try #require(codec.defaultQuality)
        #expect((1...100).contains(quality))
        let image = TestImages.noise(width: 37, height: 23, format: .rgb8)
        let implicit = try #require(codec.standardEncoding(StandardEncodeSettings()))
        let explicit = try #require(codec.standardEncoding(StandardEncodeSettings(quality: quality)))
        let other = try #require(codec.standardEncoding(StandardEncodeSettings(quality: quality == 50 ? 40 : 50)))
        let written = try image.encoded(as: implicit)
        #expect(written == (try image.encoded(as: explicit)))
        // The quality reaches the encoder at all: another one gives other bytes.
        #expect(written != (try image.encoded(as: other)))
    }

    /// Every format the table both writes and reads as several frames (animations or pages).
    static let multiFrameFormats: [ImageFormat] = ImageCodecs.all.filter { $0.canDecode && $0.canEncodeAnimation }
        .map(\.format)

    @Test("a codec that says it decodes animations reads back two frames of one size; others read pages")
    func decodesAnimationIsTrue() throws {
        #expect(Self.multiFrameFormats.contains { ImageCodecs.codec(for: $0)?.decodesAnimation == true })
        for format in Self.multiFrameFormats {
            let codec = try #require(ImageCodecs.codec(for: format))
            let encoding = try #require(codec.standardEncoding(StandardEncodeSettings(quality: 90)))
            let frames = [1, 2].map { seed in
                AnimationFrame(
                    index: seed - 1, image: TestImages.noise(width: 16, height: 8, format: .rgb8, seed: UInt32(seed)),
                    duration: .milliseconds(100))
            }
            let data = try encoding.encodeAnimation(frames)
            let decoder = try codec.frameDecoder(data, options: Self.boundedOptions)
            #expect(decoder.frameCount == 2, "\(format)")
            // Pages may differ in size; the frames of an animation share its canvas.
            #expect(decoder.framesHaveTheirOwnSizes == !codec.decodesAnimation, "\(format)")
        }
    }

    @Test("sniffing picks the codec, and info agrees with a decode", arguments: decodableFormats)
    func sniffAndInfo(format: ImageFormat) throws {
        let samples = Self.samples(of: format)
        guard !samples.isEmpty else { return }  // no encoder and no corpus here
        for sample in samples {
            #expect(ImageFormat.sniff(sample.data) == format, "\(sample.name)")
            let info = try Image.info(data: sample.data)
            let image = try Image(data: sample.data)
            #expect(info.format == format, "\(sample.name)")
            #expect(info.width == image.width && info.height == image.height, "\(sample.name)")
            #expect(info.pixelFormat == image.pixelFormat, "\(sample.name)")
        }
    }

    @Test("a cut file: strict throws or is whole, lenient keeps the canvas or throws", arguments: decodableFormats)
    func truncation(format: ImageFormat) throws {
        for sample in Self.samples(of: format) {
            let whole = try Image(data: sample.data)
            let bytes = [UInt8](sample.data)
            for length in Self.cutLengths(of: bytes.count) {
                let prefix = Data(bytes[..<length])
                // Strict mode never returns a damaged image: an error, or (when the cut took only bytes no
                // pixel needs, such as GIF's trailer) the same pixels with only benign warnings.
                if let image = try? Image(data: prefix) {
                    Self.expectTabled(image.metadata.warnings, of: format, "\(sample.name) cut at \(length), strict")
                    let same =
                        image.width == whole.width && image.height == whole.height && image.pixels == whole.pixels
                    #expect(same, "\(sample.name) cut at \(length) of \(bytes.count): strict returned other pixels")
                    let kinds = image.metadata.warnings.map(\.kind)
                    #expect(kinds.allSatisfy { $0 == .benign }, "\(sample.name) cut at \(length): \(kinds)")
                }
                let lenient = DecodeOptions(strictness: .lenient)
                do {
                    let image = try Image(data: prefix, options: lenient)
                    Self.expectTabled(image.metadata.warnings, of: format, "\(sample.name) cut at \(length), lenient")
                    // What lenient keeps is whole rows or frames of the same canvas, never a smaller image.
                    #expect(image.width == whole.width && image.height == whole.height, "\(sample.name) at \(length)")
                    // What a lossless codec's lenient mode keeps is whole rows as the full decode gives them; a
                    // missing row is a fill (one pixel repeated, zero in practice), which a row of the noise sample
                    // never is. Lossy codecs are left out: they code blocks of rows, and libjpeg and libwebp keep
                    // the rows of a partly decoded block row, its missing blocks filled (gray for JPEG).
                    if !format.usesQuality, image.pixelFormat == whole.pixelFormat {
                        let row = whole.width * whole.pixelFormat.bytesPerPixel
                        let pixel = whole.pixelFormat.bytesPerPixel
                        let wrongRows = (0..<whole.height).filter { index in
                            let kept = Array(image.pixels[index * row..<(index + 1) * row])
                            let isFill = stride(from: pixel, to: row, by: pixel).allSatisfy {
                                kept[$0..<$0 + pixel] == kept[0..<pixel]
                            }
                            return !isFill && kept[...] != whole.pixels[index * row..<(index + 1) * row]
                        }
                        #expect(
                            wrongRows.isEmpty,
                            "\(sample.name) cut at \(length): rows \(wrongRows) are neither whole nor a fill")
                    }
                } catch {
                    _ = error.shortName
                }
                if let info = try? Image.info(data: prefix) {
                    Self.expectTabled(info.metadata.warnings, of: format, "\(sample.name) cut at \(length), info")
                }
                if let reader = try? AnimationReader(data: prefix, options: lenient) {
                    while let frame = try? reader.nextFrame() {
                        Self.expectTabled(
                            frame.image.metadata.warnings, of: format,
                            "\(sample.name) cut at \(length), frame \(frame.index)")
                    }
                }
            }
        }
    }

    @Test("the pixel limit is applied from the header, before any pixels", arguments: decodableFormats)
    func pixelLimit(format: ImageFormat) throws {
        for sample in Self.samples(of: format) {
            let info = try Image.info(data: sample.data)
            for limit in [1, info.width * info.height - 1] {
                let options = DecodeOptions(pixelLimit: limit)
                #expect(throws: ImageDecodingError.tooLarge(width: info.width, height: info.height, limit: limit)) {
                    try Image(data: sample.data, options: options)
                }
                #expect(throws: ImageDecodingError.self) { try Image.verify(data: sample.data, options: options) }
                #expect(throws: ImageDecodingError.self) {
                    let reader = try AnimationReader(data: sample.data, options: options)
                    while try reader.nextFrame() != nil {}
                }
            }
            let enough = DecodeOptions(pixelLimit: info.width * info.height)
            #expect(try Image(data: sample.data, options: enough).width == info.width)
        }
    }

    @Test("every corpus file ends in an image or a typed error, in both modes", arguments: decodableFormats)
    func wholeCorpus(format: ImageFormat) {
        let lenient = {
            var options = Self.boundedOptions
            options.strictness = .lenient
            return options
        }()
        for file in Self.corpusFiles(of: format) {
            if let info = try? Image.info(data: file.data) {
                Self.expectTabled(info.metadata.warnings, of: format, "\(file.name), info")
            }
            for options in [Self.boundedOptions, lenient] {
                if let image = try? Image(data: file.data, options: options) {
                    #expect(image.width > 0 && image.height > 0, "\(file.name)")
                    Self.expectTabled(image.metadata.warnings, of: format, "\(file.name), \(options.strictness)")
                }
                if let reader = try? AnimationReader(data: file.data, options: options) {
                    while let frame = try? reader.nextFrame() {
                        Self.expectTabled(
                            frame.image.metadata.warnings, of: format, "\(file.name), frame \(frame.index)")
                    }
                }
            }
        }
    }

    /// The committed fuzz regression inputs (`Fixtures/fuzz/<target>`, where `scripts/fuzz` saves a crash
    /// to commit): a one-codec target's folder holds its format's inputs, and the targets that decode any
    /// format share theirs with every codec their inputs sniff as.
    static let fuzzFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz", isDirectory: true)

    /// The targets whose inputs may be of any format.
    static let anyFormatFuzzTargets = ["FuzzDecode", "FuzzFrames", "FuzzThumbnail", "FuzzJPEGScaled"]

    /// The folder of `format`'s one-codec fuzz target, as `scripts/fuzz` names it (`FuzzCodec:webp` keeps its
    /// inputs in `FuzzCodec-webp`).
    static func codecFuzzFolder(_ format: ImageFormat) -> String { "FuzzCodec-\(format.rawValue)" }

    /// The regression inputs `format`'s decoder must survive: its own folder's files, whatever they sniff as
    /// (the fuzzer mutated them from its seeds), and the any-format targets' files that sniff as `format`.
    static func fuzzRegressions(of format: ImageFormat) -> [(name: String, data: Data)] {
        func files(_ folder: String) -> [(name: String, data: Data)] {
            let directory = fuzzFixtures.appendingPathComponent(folder, isDirectory: true)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.sorted().compactMap { name in
                FileManager.default.contents(atPath: directory.appendingPathComponent(name).path).map {
                    ("\(folder)/\(name)", $0)
                }
            }
        }
        return files(codecFuzzFolder(format))
            + anyFormatFuzzTargets.flatMap(files).filter { ImageFormat.sniff($0.data) == format }
    }

    @Test("every fuzz regression folder belongs to a fuzz target, a codec's to a decodable format")
    func fuzzFoldersAreKnown() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.fuzzFixtures.path)
        let known = Set(Self.anyFormatFuzzTargets + Self.decodableFormats.map(Self.codecFuzzFolder))
        for folder in folders where folder.hasPrefix("FuzzCodec") || Self.anyFormatFuzzTargets.contains(folder) {
            #expect(known.contains(folder), "Fixtures/fuzz/\(folder) is not a folder scripts/fuzz saves to")
        }
        // The replay finds what is committed: FuzzDecode's PNG input belongs to the PNG codec.
        #expect(Self.fuzzRegressions(of: .png).contains { $0.name == "FuzzDecode/oom-itxt-declares-1GB.png" })
        // The folder this test reads is the one the script commits to.
        let script = try String(
            contentsOf: Self.fuzzFixtures.appendingPathComponent("../../../../scripts/fuzz"), encoding: .utf8)
        #expect(script.contains("Tests/PixpipeImageTests/Fixtures/fuzz/${1/:/-}"))
    }

    @Test(
        "every committed fuzz regression input ends in an image or a typed error: info, strict and lenient",
        arguments: decodableFormats)
    func fuzzRegressionsReplay(format: ImageFormat) {
        // FuzzCodec's limits: its inputs were found under them, and they bound the replay's memory.
        let strict = DecodeOptions(pixelLimit: 1 << 20, byteLimit: 1 << 22, frameLimit: 8, animationPixelLimit: 1 << 22)
        var lenient = strict
        lenient.strictness = .lenient
        lenient.keeps16Bit = true
        for input in Self.fuzzRegressions(of: format) {
            // A typed error is a pass: the failures these inputs once caused were crashes, hangs and leaks.
            if let info = try? Image.info(data: input.data) {
                #expect(info.width > 0 && info.height > 0, "\(input.name)")
                Self.expectTabled(info.metadata.warnings, of: format, "\(input.name), info")
            }
            for options in [strict, lenient] {
                if let image = try? Image(data: input.data, options: options) {
                    #expect(image.width > 0 && image.height > 0, "\(input.name)")
                    #expect(image.pixels.count == image.height * image.width * image.pixelFormat.bytesPerPixel)
                    Self.expectTabled(image.metadata.warnings, of: format, "\(input.name), \(options.strictness)")
                }
                _ = try? Image.verify(data: input.data, options: options)
                if let reader = try? AnimationReader(data: input.data, options: options) {
                    while let frame = try? reader.nextFrame() {
                        Self.expectTabled(
                            frame.image.metadata.warnings, of: format, "\(input.name), frame \(frame.index)")
                    }
                }
            }
        }
    }

    /// Where to cut a file of `count` bytes: every length up to 64 (headers), then about 40 more spread
    /// over the rest, never the whole file.
    static func cutLengths(of count: Int) -> [Int] {
        guard count > 1 else { return [] }
        let small = Array(0..<min(count, 64))
        let step = max(1, (count - 64) / 40)
        let spread = count > 64 ? Array(stride(from: 64, to: count, by: step)) : []
        return small + spread + [count - 1]
    }
}
