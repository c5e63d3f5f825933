import Foundation

extension ImageProcessors {
    /// Steps run in order; the first one starts from the encoded bytes when there are bytes.
    ///
    /// No steps is the identity on images (bytes are decoded fully). Compositions nest: the identifier is
    /// the steps' identifiers joined with `|`, so `[a, [b, c]]` and `[a, b, c]` name the same pixels.
    public struct Composition: ImageProcessing {
        /// The steps, first to last.
        public var processors: [any ImageProcessing]

        /// A composition of `processors`, run first to last.
        public init(_ processors: [any ImageProcessing]) {
            self.processors = processors
        }

        /// The steps' identifiers joined with `|`; empty for no steps.
        public var identifier: String {
            processors.map(\.identifier).joined(separator: "|")
        }

        /// Whether there is no step at all.
        public var isEmpty: Bool { processors.isEmpty }

        /// Every step applied to `image`, in order.
        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            var result = image
            for processor in processors { result = try processor.process(result) }
            return result
        }

        /// The first step applied to the bytes, then the others to its image.
        public func process(data: Data, options: DecodeOptions) throws(ImageProcessingError) -> Image {
            guard let first = processors.first else { return try Self.decode(data, options: options) }
            var result = try first.process(data: data, options: options)
            for processor in processors.dropFirst() { result = try processor.process(result) }
            return result
        }
    }
}
