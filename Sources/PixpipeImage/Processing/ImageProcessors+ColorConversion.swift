extension ImageProcessors {
    /// The image's colours converted to another colour space (see ``Image/converted(toColorSpace:options:)``).
    public struct ColorConversionStep: ImageProcessing, Hashable {
        /// The target and the options.
        public var conversion: ColorConversion

        /// A conversion step.
        public init(_ conversion: ColorConversion) {
            self.conversion = conversion
        }

        /// `color(TARGET,...)`: the conversion's ``ColorConversion/identifier``.
        public var identifier: String { "color(\(conversion.identifier))" }

        /// The image in the target colour space.
        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            try image.converted(toColorSpace: conversion.target, options: conversion.options)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.ColorConversionStep {
    /// The image converted to `target` (see ``Image/converted(toColorSpace:options:)``).
    public static func colorConversion(
        to target: ColorSpace, options: ColorConversionOptions = .init()
    ) -> ImageProcessors.ColorConversionStep {
        ImageProcessors.ColorConversionStep(ColorConversion(target: target, options: options))
    }
}
