import Pixpipe

/// A size as ImageMagick users write it (`50%`, `400x`, `x300`, `400x300`, `400x300!`, `400x300^`,
/// `400x300>`, `400x300<`), read into thumbnail options.
///
/// ```swift
/// let geometry = ResizeGeometry("400x300^")  // fill: cover the box, crop it around the centre
/// ```
struct ResizeGeometry: Sendable, Hashable {
    /// Which way the picture may be resized.
    enum Direction: Sendable, Hashable {
        /// As the other options say (`--upscale`): reduced, and enlarged only on request.
        case unstated
        /// `>`: only reduced, never enlarged.
        case shrinkOnly
        /// `<`: only enlarged, a larger picture left as it is.
        case enlargeOnly
    }

    /// The forms accepted, for error messages and help.
    static let acceptedForms =
        "N% (scale), W or Wx (width), xH (height), WxH (fit in the box), WxH! (exactly, aspect not kept), "
        + "WxH^ (fill: cover and crop), WxH> (only shrink), WxH< (only enlarge)"

    /// The target size.
    let size: ThumbnailOptions.Size
    /// The mode the suffix names (`!` stretch, `^` fill), or `nil` for none.
    let mode: ThumbnailOptions.Mode?
    /// The direction the suffix names.
    let direction: Direction

    /// Whether the geometry asks to enlarge: a scale over 100 %, an exact size, or `<`.
    var enlarges: Bool {
        if case .scale(let factor) = size, factor > 1 { return true }
        return mode == .stretch || direction == .enlargeOnly
    }

    /// The geometry `text` spells, or `nil` when it is none of ``acceptedForms``.
    init?(_ text: String) {
        var body = Substring(text)
        if body.hasSuffix("%") {
            // A percentage scales both sides; ImageMagick's `50x25%` (one per side) is not taken.
            guard let percent = Double(body.dropLast()), percent > 0, percent <= 10_000, percent.isFinite
            else { return nil }
            (size, mode, direction) = (.scale(percent / 100), nil, .unstated)
            return
        }
        var mode: ThumbnailOptions.Mode?
        var direction = Direction.unstated
        switch body.last {
        case "!": mode = .stretch
        case "^": mode = .fill
        case ">": direction = .shrinkOnly
        case "<": direction = .enlargeOnly
        default: break
        }
        if mode != nil || direction != .unstated { body = body.dropLast() }
        let parts = body.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return nil }
        let width = parts[0].isEmpty ? nil : Self.side(parts[0])
        let height = parts.count == 2 && !parts[1].isEmpty ? Self.side(parts[1]) : nil
        // An empty side is allowed; a side that is not a number in range is not.
        if !parts[0].isEmpty && width == nil { return nil }
        if parts.count == 2 && !parts[1].isEmpty && height == nil { return nil }
        switch (width, height) {
        case (let width?, let height?): size = .box(width: width, height: height)
        case (let width?, nil): size = .width(width)
        case (nil, let height?): size = .height(height)
        case (nil, nil): return nil
        }
        // `!` and `^` need a box: one side alone has no aspect ratio to keep or break.
        if mode != nil, case .box = size {} else if mode != nil { return nil }
        self.mode = mode
        self.direction = direction
    }

    private static func side(_ text: Substring) -> Int? {
        guard let value = Int(text), (1...65535).contains(value) else { return nil }
        return value
    }
}
