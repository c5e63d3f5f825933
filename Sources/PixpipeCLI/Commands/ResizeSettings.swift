import Pixpipe

/// The size, mode and filter options shared by `pixpipe thumbnail` and `pixpipe convert`.
struct ResizeSettings: Sendable, Hashable {
    /// The options both commands accept.
    static let options: [OptionSpec] = [
        .value("size", short: "s", placeholder: "N", help: "Fit inside an N x N box (with --fill: cover it)."),
        .value("resize", placeholder: "WxH", help: "Fit inside a W x H box (with --fill: cover it)."),
        .value("width", placeholder: "N", help: "Resize to N pixels wide, keeping the aspect ratio."),
        .value("height", placeholder: "N", help: "Resize to N pixels high, keeping the aspect ratio."),
        .flag("fill", help: "Cover the box, then crop it around the centre to exactly the box."),
        .flag("upscale", help: "Enlarge pictures smaller than the target (never done otherwise)."),
        .value(
            "filter", placeholder: "NAME",
            help: "Resampling filter: box, triangle, mitchell, catmull-rom or lanczos3 (default)."),
        .flag("linear", help: "Resample in linear light."),
    ]

    /// The requested size, or `nil` when no size option was given.
    let size: ThumbnailOptions.Size?
    /// Fit or fill.
    let mode: ThumbnailOptions.Mode
    /// Whether small pictures are enlarged.
    let allowsUpscaling: Bool
    /// The resampling filter.
    let filter: ResizeFilter
    /// Resample in linear light.
    let linearLight: Bool

    /// Reads the options; at most one of --size, --resize and --width/--height.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        let side = try arguments.integer("size", in: 1...65535)
        let box = try arguments.parsed("resize", expected: "WIDTHxHEIGHT, such as 320x240") { Self.box($0) }
        let width = try arguments.integer("width", in: 1...65535)
        let height = try arguments.integer("height", in: 1...65535)
        let given = [side != nil, box != nil, width != nil || height != nil].filter { $0 }.count
        if given > 1 {
            throw .invalidValue(
                option: "--size", value: arguments.value("size") ?? arguments.value("resize") ?? "",
                expected: "only one of --size, --resize and --width/--height")
        }
        if let side {
            size = .box(side)
        } else if let box {
            size = .box(width: box.width, height: box.height)
        } else if let width, let height {
            size = .box(width: width, height: height)
        } else if let width {
            size = .width(width)
        } else if let height {
            size = .height(height)
        } else {
            size = nil
        }
        mode = arguments.isSet("fill") ? .fill : .fit
        allowsUpscaling = arguments.isSet("upscale")
        filter =
            try arguments.parsed("filter", expected: "box, triangle, mitchell, catmull-rom or lanczos3") {
                Self.filter(named: $0)
            } ?? .lanczos3
        linearLight = arguments.isSet("linear")
    }

    /// Thumbnail options with these settings (the size defaulting to `fallback`) and no colour conversion:
    /// each command decides its own (see ``ColorSettings``).
    func thumbnailOptions(fallback: ThumbnailOptions.Size) -> ThumbnailOptions {
        ThumbnailOptions(
            size: size ?? fallback, mode: mode, allowsUpscaling: allowsUpscaling, filter: filter,
            linearLight: linearLight, colorConversion: nil)
    }

    private static func box(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (1...65535).contains(width), (1...65535).contains(height)
        else { return nil }
        return (width, height)
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
