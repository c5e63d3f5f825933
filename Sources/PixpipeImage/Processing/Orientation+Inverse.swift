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
