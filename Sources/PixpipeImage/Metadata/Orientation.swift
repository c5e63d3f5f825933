/// The eight EXIF orientations: how the stored pixels must be transformed to show the picture upright.
///
/// Raw values are the EXIF tag values (1 = stored upright).
public enum Orientation: Int, Sendable, Hashable, CaseIterable, Codable {
    /// Stored upright.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Rotated 180°.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the top-left to bottom-right diagonal (transposed).
    case leftMirrored = 5
    /// Needs a 90° clockwise rotation to be upright.
    case right = 6
    /// Mirrored along the top-right to bottom-left diagonal (transversed).
    case rightMirrored = 7
    /// Needs a 90° counter-clockwise rotation to be upright.
    case left = 8

    /// Whether showing the picture upright swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }
}

extension Orientation {
    /// The orientation that undoes this one: `image.transformed(by: o).transformed(by: o.inverse)` is `image`.
    ///
    /// Flips, the half turn and both diagonal mirrors are their own inverse; the quarter turns swap.
    public var inverse: Orientation {
        switch self {
        case .right: .left
        case .left: .right
        default: self
        }
    }
}
