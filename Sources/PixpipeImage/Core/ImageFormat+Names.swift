extension ImageFormat {
    /// The formats the codec table decodes, in its order, for help texts and messages: "PNG, JPEG, ... or TIFF".
    package static var decodableNames: String { listed(all.filter(\.canDecode).map { $0.rawValue.uppercased() }) }

    /// The formats the codec table encodes, in its order, for help texts: "PNG, JPEG, ... or PAM".
    package static var encodableNames: String { listed(all.filter(\.canEncode).map { $0.rawValue.uppercased() }) }

    /// The formats the codec table encodes, in its order, as `--format` takes them: "png, jpeg, ... or pam".
    package static var writableNames: String { listed(all.filter(\.canEncode).map(\.rawValue)) }

    /// The formats whose encoders take a quality, for messages: "JPEG".
    package static var qualityNames: String { listed(all.filter(\.usesQuality).map { $0.rawValue.uppercased() }) }

    /// Each format whose encoder takes a quality with its default, as `--format` takes them: "jpeg 85, webp 85 ...".
    package static var defaultQualities: String {
        all.compactMap { format in format.defaultQuality.map { "\(format.rawValue) \($0)" } }.joined(separator: ", ")
    }

    /// The formats whose decoders read animations frame by frame, as `--format` takes them: "gif, webp ...".
    package static var animatedInputNames: String {
        listed(all.filter { ImageCodecs.codec(for: $0)?.decodesAnimation ?? false }.map(\.rawValue))
    }

    /// The formats whose encoders write animations, as `--format` takes them: "webp or avif".
    package static var animationNames: String { listed(all.filter(\.canEncodeAnimation).map(\.rawValue)) }

    /// The formats with a lossless mode beside a lossy one, as `--format` takes them: "webp or avif".
    package static var losslessNames: String { listed(all.filter(\.hasLosslessMode).map(\.rawValue)) }

    /// The formats whose encoders have a progressive or interlaced mode, as `--format` takes them: "png or jpeg".
    package static var progressiveNames: String { listed(all.filter(\.hasProgressiveMode).map(\.rawValue)) }

    /// The formats whose encoders store 16-bit samples, as `--format` takes them: "png, ppm or pam".
    package static var sixteenBitNames: String {
        listed(all.filter(\.writes16Bit).map(\.rawValue))
    }

    /// The formats whose encoders keep deep samples at 10 bits rather than 16, as `--format` takes them: "heif".
    package static var tenBitNames: String {
        listed(all.filter { $0.keepsDeepSamples && !$0.writes16Bit }.map(\.rawValue))
    }

    /// Every file extension of an encodable format, for messages.
    package static var writableExtensions: [String] {
        all.filter(\.canEncode).flatMap { ImageCodecs.codec(for: $0)?.fileExtensions ?? [] }
    }

    /// The format the extension of `path` names, or `nil` (no extension, or an unknown one).
    package init?(path: String) {
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
        self.init(name: String(fileName[fileName.index(after: dot)...]))
    }

    /// The folder of the format's public test corpus under `$PIXPIPE_CORPORA` (the fuzz seeds and the
    /// codec contract test read it): the identifier, except where the corpus is named after its source.
    /// The one place that maps a format to its corpus.
    package var corpusFolder: String {
        switch rawValue {
        case "png": "pngsuite"
        case "jpeg": "libjpeg-turbo"
        default: rawValue
        }
    }

    /// Every file extension that names the format, the usual one first.
    package var fileExtensions: [String] { ImageCodecs.codec(for: self)?.fileExtensions ?? [] }

    /// Whether the format's encoder reads ``StandardEncodeSettings/quality``.
    package var usesQuality: Bool { ImageCodecs.codec(for: self)?.usesQuality ?? false }

    /// The quality the format's encoder uses when none is given, or `nil` when it takes no quality.
    package var defaultQuality: Int? { ImageCodecs.codec(for: self)?.defaultQuality }

    /// Whether the format's encoder has a progressive (interlaced) mode.
    package var hasProgressiveMode: Bool { ImageCodecs.codec(for: self)?.hasProgressiveMode ?? false }

    /// Whether the format's encoder stores 16-bit samples as they are.
    package var writes16Bit: Bool { ImageCodecs.codec(for: self)?.writes16Bit ?? false }

    /// Whether the format's encoder keeps samples deeper than 8 bits (16-bit as they are, or at 10 bits).
    package var keepsDeepSamples: Bool { ImageCodecs.codec(for: self)?.keepsDeepSamples ?? false }

    /// Whether the format's encoder has a lossless mode beside its lossy one.
    package var hasLosslessMode: Bool { ImageCodecs.codec(for: self)?.hasLosslessMode ?? false }

    /// "a, b or c".
    private static func listed(_ names: [String]) -> String {
        guard names.count > 1, let last = names.last else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }
}
