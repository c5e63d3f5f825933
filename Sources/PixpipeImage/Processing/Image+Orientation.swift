// STUB: replaced by the processing work.
extension Image {
    /// The picture turned upright: `metadata.orientation` applied to the pixels, then set to `.up`.
    public func applyingOrientation() -> Image {
        transformed(by: metadata.orientation)
    }

    /// The pixels transformed as `orientation` says (exact rotations and flips); orientation becomes `.up`.
    public func transformed(by orientation: Orientation) -> Image {
        self
    }
}
