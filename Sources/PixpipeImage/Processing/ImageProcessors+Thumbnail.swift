import Foundation

extension ImageProcessors {
    /// A thumbnail made by ``Thumbnailer``: from bytes, it decodes no more than it needs (DCT-scaled JPEG,
    /// streamed PNG); from a decoded image, it resizes that.
    public struct Thumbnail: ImageProcessing, Hashable {
        /// Size, mode, filter and limits.
        public var options: ThumbnailOptions

        /// A thumbnail step with `options`.
        public init(_ options: ThumbnailOptions) {
            self.options = options
        }

        /// `thumbnail(SIZE,mode:M,upscale:B,filter:F,linear:B,orient:B,color:C)`, SIZE being `box:WxH`,
        /// `width:W`, `height:H` or `scale:F`, a `,downscale:false` after B when set, C `keep` or the conversion's ``ColorConversion/identifier``; the limits
        /// and the thread count change no pixel and are left out.
        public var identifier: String {
            let size =
                switch options.size {
                case .box(let width, let height): "box:\(width)x\(height)"
                case .width(let width): "width:\(width)"
                case .height(let height): "height:\(height)"
                case .scale(let factor): "scale:\(factor)"
                }
            let mode =
                switch options.mode {
                case .fit: "fit"
                case .fill: "fill"
                case .stretch: "stretch"
                }
            // Only a non-default value is named, so the identifiers of earlier recipes stay as they were.
            let downscale = options.allowsDownscaling ? "" : ",downscale:false"
            return
                "thumbnail(\(size),mode:\(mode),upscale:\(options.allowsUpscaling)\(downscale),filter:\(options.filter.rawValue)"
                + ",linear:\(options.linearLight),orient:\(options.appliesOrientation)"
                + ",color:\(options.colorConversion?.identifier ?? "keep"))"
        }

        /// The thumbnail of a decoded image (its orientation is honoured).
        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            try Thumbnailer(options).thumbnail(of: image)
        }

        /// The thumbnail of encoded bytes of any decodable format, decoded at the least size it needs; the strictness
        /// of `options` wins over the thumbnail's own, its limits stay the thumbnail's.
        public func process(data: Data, options decodeOptions: DecodeOptions) throws(ImageProcessingError) -> Image {
            var options = self.options
            options.strictness = decodeOptions.strictness
            return try Thumbnailer(options).thumbnail(data: data)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Thumbnail {
    /// A thumbnail with `options` (see ``Thumbnailer``).
    public static func thumbnail(_ options: ThumbnailOptions) -> ImageProcessors.Thumbnail {
        ImageProcessors.Thumbnail(options)
    }
}
