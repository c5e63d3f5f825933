extension ImageProcessors {
    /// The EXIF orientation applied (after the AVIF clean-aperture crop), so the pixels are upright and
    /// the metadata says orientation 1 (see ``Image/applyingOrientation()``).
    public struct Orientation: ImageProcessing, Hashable {
        /// The orientation step.
        public init() {}

        /// `orientation`.
        public var identifier: String { "orientation" }

        /// The image cut to its clean aperture and turned upright.
        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            image.applyingOrientation()
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Orientation {
    /// The EXIF orientation applied.
    public static var orientation: ImageProcessors.Orientation { ImageProcessors.Orientation() }
}
