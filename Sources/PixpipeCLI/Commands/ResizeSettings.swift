import Pixpipe

/// The size, mode, filter and background options shared by `pixpipe thumbnail` and `pixpipe convert`.
struct ResizeSettings: Sendable, Hashable {
    /// The options both commands accept.
    static let options: [OptionSpec] = [
        .value(
            "size", short: "s", placeholder: "N|GEOMETRY",
            help: "Fit inside an N x N box (with --fill: cover it), or a --resize GEOMETRY."),
        .value(
            "resize", placeholder: "GEOMETRY",
            help: "50%, 400x, x300, 400x300 (fit), 400x300! (exact), 400x300^ (fill), 400x300> or 400x300<."),
        .value("width", placeholder: "N", help: "Resize to N pixels wide, keeping the aspect ratio."),
        .value("height", placeholder: "N", help: "Resize to N pixels high, keeping the aspect ratio."),
        .flag("fill", help: "Cover the box, then crop it around the centre to exactly the box."),
        .flag("exact", help: "Resize to exactly the box (--width with --height, or a WxH), aspect not kept."),
        .flag("upscale", help: "Enlarge pictures smaller than the target (never done otherwise)."),
        .value(
            "filter", placeholder: "NAME",
            help: "Resampling filter: box, triangle, mitchell, catmull-rom or lanczos3 (default)."),
        .flag("linear", help: "Resample in linear light."),
        .value(
            "background", placeholder: "COLOR",
            help: "Flatten transparency onto COLOR (white, black, #rrggbb, #rrggbbaa...)."),
    ]

    /// The requested size, or `nil` when no size option was given.
    let size: ThumbnailOptions.Size?
    /// Fit, fill or stretch.
    let mode: ThumbnailOptions.Mode
    /// Whether small pictures are enlarged.
    let allowsUpscaling: Bool
    /// Whether large pictures are reduced (off for `WxH<`).
    let allowsDownscaling: Bool
    /// The resampling filter.
    let filter: ResizeFilter
    /// Resample in linear light.
    let linearLight: Bool
    /// `--background`: the colour transparency is flattened onto, or `nil` to keep alpha where the output
    /// holds it (outputs without alpha, such as JPEG, are then composited over white).
    let background: BackgroundColor?

    /// Reads the options; at most one of --size, --resize and --width/--height.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        let expected = ResizeGeometry.acceptedForms
        let sizeGeometry = try arguments.parsed("size", expected: "N (an N x N box) or " + expected) { text in
            Int(text).map { side in (1...65535).contains(side) ? ResizeGeometry("\(side)x\(side)") : nil }
                ?? ResizeGeometry(text)
        }
        let resizeGeometry = try arguments.parsed("resize", expected: expected) { ResizeGeometry($0) }
        let width = try arguments.integer("width", in: 1...65535)
        let height = try arguments.integer("height", in: 1...65535)
        let given = [sizeGeometry != nil, resizeGeometry != nil, width != nil || height != nil].filter { $0 }.count
        if given > 1 {
            throw .invalidValue(
                option: "--size", value: arguments.value("size") ?? arguments.value("resize") ?? "",
                expected: "only one of --size, --resize and --width/--height")
        }
        var geometry = sizeGeometry ?? resizeGeometry
        if geometry == nil, width != nil || height != nil {
            geometry = ResizeGeometry(
                [width.map(String.init) ?? "", height.map(String.init) ?? ""].joined(separator: "x"))
        }
        let exact = arguments.isSet("exact")
        let fill = arguments.isSet("fill")
        var mode = geometry?.mode ?? (fill ? .fill : .fit)
        if fill && geometry?.mode == .stretch {
            throw .invalidValue(option: "--fill", value: "", expected: "no --fill with an exact size (WxH!)")
        }
        if exact {
            guard case .box = geometry?.size, geometry?.mode != .fill, !fill else {
                throw .invalidValue(
                    option: "--exact", value: "",
                    expected: "a box to be exact to: --width with --height, --size N or --resize WxH, and no --fill")
            }
            mode = .stretch
        }
        size = geometry?.size
        self.mode = mode
        let direction = geometry?.direction ?? .unstated
        allowsUpscaling =
            direction == .shrinkOnly ? false : (arguments.isSet("upscale") || geometry?.enlarges == true)
        allowsDownscaling = direction != .enlargeOnly
        filter =
            try arguments.parsed("filter", expected: "box, triangle, mitchell, catmull-rom or lanczos3") {
                Self.filter(named: $0)
            } ?? .lanczos3
        linearLight = arguments.isSet("linear")
        background = try arguments.parsed("background", expected: BackgroundColor.acceptedForms) {
            BackgroundColor(argument: $0)
        }
    }

    /// Thumbnail options with these settings (the size defaulting to `fallback`) and no colour conversion:
    /// each command decides its own (see ``ColorSettings``).
    func thumbnailOptions(fallback: ThumbnailOptions.Size) -> ThumbnailOptions {
        var options = ThumbnailOptions(
            size: size ?? fallback, mode: mode, allowsUpscaling: allowsUpscaling, filter: filter,
            linearLight: linearLight, colorConversion: nil)
        options.allowsDownscaling = allowsDownscaling
        return options
    }

    private static func filter(named name: String) -> ResizeFilter? {
        switch name.lowercased() {
        case "box": .box
        case "triangle", "bilinear": .triangle
        case "mitchell": .mitchell
        case "catmull-rom", "catmullrom", "bicubic": .catmullRom
        case "lanczos3", "lanczos": .lanczos3
        default: nil
        }
    }
}
