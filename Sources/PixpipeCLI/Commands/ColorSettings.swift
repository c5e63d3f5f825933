import Foundation
import Pixpipe

/// The colour options of `pixpipe thumbnail` and `pixpipe convert`: the target profile and the intent.
struct ColorSettings: Sendable, Hashable {
    /// `--profile`, `--intent` and `--bpc`, which both commands accept.
    static let options: [OptionSpec] = [
        .value(
            "profile", placeholder: "NAME|FILE",
            help: "Convert colours to srgb, p3, adobergb, gray, or the ICC profile in FILE."),
        .value(
            "intent", placeholder: "NAME",
            help: "Rendering intent: perceptual (default), relative, saturation or absolute."),
        .flag("bpc", help: "Black-point compensation (with --intent relative)."),
    ]

    /// `--keep-profile`, which only the thumbnail command takes (convert keeps the profile unless asked).
    static let keepProfileOption = OptionSpec.flag(
        "keep-profile", help: "Keep the source's ICC profile and colours (default: convert to sRGB, no profile).")

    /// The `--profile` target, if one was given.
    let target: ColorSpace?
    /// Intent and black-point compensation; sRGB results carry their profile.
    let options: ColorConversionOptions

    /// Reads the options; a profile FILE that cannot be read or parsed is a usage error.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        let intent =
            try arguments.parsed("intent", expected: "perceptual, relative, saturation or absolute") {
                Self.intent(named: $0)
            } ?? .perceptual
        options = ColorConversionOptions(intent: intent, blackPointCompensation: arguments.isSet("bpc"))
        target = try arguments.value("profile").map { (name) throws(UsageError) in try Self.colorSpace(named: name) }
    }

    /// The conversion `convert` applies: only on request, the target's profile embedded.
    var convertConversion: ColorConversion? { target.map { ColorConversion(target: $0, options: options) } }

    /// The conversion `thumbnail` applies: to `--profile` or sRGB, an sRGB result untagged; none with
    /// `--keep-profile`.
    func thumbnailConversion(keepsProfile: Bool) throws(UsageError) -> ColorConversion? {
        if keepsProfile {
            if let target {
                throw .invalidValue(
                    option: "--profile", value: target.description, expected: "no --profile with --keep-profile")
            }
            return nil
        }
        var options = options
        options.embedsSRGBProfile = false
        return ColorConversion(target: target ?? .sRGB, options: options)
    }

    /// A built-in name, or a file holding an RGB or gray ICC profile.
    private static func colorSpace(named name: String) throws(UsageError) -> ColorSpace {
        switch name.lowercased() {
        case "srgb": return .sRGB
        case "p3", "display-p3", "displayp3": return .displayP3
        case "adobergb", "adobe-rgb": return .adobeRGB
        case "gray", "grey": return .gray
        default: break
        }
        let expected = "srgb, p3, adobergb, gray or an RGB or gray ICC profile file"
        guard let data = FileManager.default.contents(atPath: name) else {
            throw .invalidValue(option: "--profile", value: name, expected: expected + " (cannot read the file)")
        }
        let profile: ColorProfile
        do {
            profile = try ColorProfile(iccData: [UInt8](data))
        } catch {
            throw .invalidValue(option: "--profile", value: name, expected: expected + " (\(error))")
        }
        guard profile.colorSpace == .rgb || profile.colorSpace == .gray else {
            throw .invalidValue(
                option: "--profile", value: name, expected: expected + " (it is a \(profile.colorSpace) profile)")
        }
        return .profile(profile)
    }

    private static func intent(named name: String) -> RenderingIntent? {
        switch name.lowercased() {
        case "perceptual": .perceptual
        case "relative", "relative-colorimetric": .relativeColorimetric
        case "saturation": .saturation
        case "absolute", "absolute-colorimetric": .absoluteColorimetric
        default: nil
        }
    }
}
