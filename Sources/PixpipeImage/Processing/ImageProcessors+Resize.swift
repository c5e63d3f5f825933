extension ImageProcessors {
    /// A resample to an exact size (see ``Image/resized(width:height:filter:options:)``).
    public struct Resize: ImageProcessing, Hashable {
        /// The output width in pixels.
        public var width: Int
        /// The output height in pixels.
        public var height: Int
        /// The resampling filter.
        public var filter: ResizeFilter
        /// Linear light and the thread count.
        public var options: ResizeOptions

        /// A resize step to `width` x `height`.
        public init(width: Int, height: Int, filter: ResizeFilter = .lanczos3, options: ResizeOptions = .init()) {
            self.width = width
            self.height = height
            self.filter = filter
            self.options = options
        }

        /// `resize(WxH,filter:F,linear:B)`; the thread count changes no pixel and is left out.
        public var identifier: String {
            "resize(\(width)x\(height),filter:\(filter.rawValue),linear:\(options.linearLight))"
        }

        /// The image resampled to the size.
        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            try image.resized(width: width, height: height, filter: filter, options: options)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Resize {
    /// A resize to `width` x `height` with `filter` (Lanczos-3 by default).
    public static func resize(
        width: Int, height: Int, filter: ResizeFilter = .lanczos3, options: ResizeOptions = .init()
    ) -> ImageProcessors.Resize {
        ImageProcessors.Resize(width: width, height: height, filter: filter, options: options)
    }
}
