import Testing

@testable import PixpipeImage

@Suite struct ResizeFilterTests {
    static let scalings: [(Int, Int)] = [(7, 7), (10, 3), (64, 8), (100, 33), (5, 17), (3, 40)]

    @Test(arguments: ResizeFilter.allCases)
    func weightsSumToOneAndAreSymmetric(filter: ResizeFilter) {
        for (input, output) in Self.scalings {
            let weights = ResampleWeights(filter: filter, inputSize: input, outputSize: output)
            for index in 0..<output {
                let taps = weights.weights(at: index)
                #expect(abs(taps.reduce(0, +) - 1) < 1e-5, "\(filter) \(input)->\(output) at \(index)")
                // The mirror output position uses the mirrored taps (away from edge truncation too).
                let mirror = weights.weights(at: output - 1 - index)
                #expect(taps.count == mirror.count)
                for (tap, weight) in taps.enumerated() where tap < mirror.count {
                    #expect(abs(weight - mirror[mirror.count - 1 - tap]) < 1e-5)
                }
            }
        }
    }

    @Test func boxAveragesExactAreasOnIntegerRatios() throws {
        // 4x2 gray to 2x1: each output pixel is the mean of a 2x2 block.
        let image = Image(width: 4, height: 2, pixelFormat: .gray8, pixels: [0, 10, 100, 200, 20, 30, 50, 51])
        let small = try image.resized(width: 2, height: 1, filter: .box)
        #expect(small.pixels == [15, 100])  // (0+10+20+30)/4, (100+200+50+51)/4 = 100.25
        let weights = ResampleWeights(filter: .box, inputSize: 12, outputSize: 4)
        let third = Double(Float(1.0 / 3.0))
        for index in 0..<4 { #expect(weights.weights(at: index) == [third, third, third]) }
        #expect(weights.starts == [0, 3, 6, 9])
    }

    /// An impulse on a mid-gray row, upscaled 4x, traces the filter's kernel.
    @Test(arguments: ResizeFilter.allCases)
    func anImpulseTracesTheKernel(filter: ResizeFilter) throws {
        let background = 100
        var row = [UInt8](repeating: UInt8(background), count: 15)
        row[7] = 200
        let image = Image(width: 15, height: 1, pixelFormat: .gray8, pixels: row)
        let scale = 4
        let wide = try image.resized(width: 15 * scale, height: 1, filter: filter)
        let response = wide.pixels.map { Int($0) - background }
        // Symmetric about the impulse's centre (between outputs 29 and 30), peak at the centre.
        #expect(response == Array(response.reversed()))
        let peak = try #require(response.max())
        #expect(response[29] == peak && response[30] == peak)
        // Each output is the kernel sampled at its distance from the impulse (weights near the impulse
        // sum to about 1, so the normalization changes little).
        for (index, value) in response.enumerated() {
            let distance = (Double(index) + 0.5) / Double(scale) - 7.5
            let expected = 100 * filter.weight(at: distance)
            if filter == .box {
                #expect(value == 100 || value == 0)
            } else {
                #expect(abs(Double(value) - expected) <= 2.5, "\(filter) output \(index)")
            }
        }
        #expect(response.first == 0 && response.last == 0)
    }

    @Test(arguments: ResizeFilter.allCases, [(40, 30, 7, 5), (40, 30, 13, 29), (9, 6, 31, 17), (12, 12, 12, 5)])
    func aConstantImageStaysExactlyConstant(filter: ResizeFilter, sizes: (Int, Int, Int, Int)) throws {
        let (width, height, outputWidth, outputHeight) = sizes
        let cases: [(PixelFormat, Int, Int)] = [
            (.rgb8, 37, 255), (.rgba8, 201, 180), (.gray8, 0, 255), (.grayAlpha8, 255, 1),
            (PixelFormat(layout: .rgb, bitsPerSample: 16), 40_000, 65535),
            (PixelFormat(layout: .rgba, bitsPerSample: 16), 65535, 1234),
        ]
        for (format, value, alpha) in cases {
            for linearLight in [false, true] {
                let image = SyntheticImages.constant(
                    width: width, height: height, format: format, value: value, alpha: alpha)
                let resized = try image.resized(
                    width: outputWidth, height: outputHeight, filter: filter,
                    options: ResizeOptions(linearLight: linearLight))
                let expected = SyntheticImages.constant(
                    width: outputWidth, height: outputHeight, format: format, value: value, alpha: alpha)
                #expect(resized.pixels == expected.pixels, "\(format) linear: \(linearLight)")
            }
        }
    }

    @Test func linearLightRoundTripsEveryEightBitLevel() throws {
        // Row y holds level y; a horizontal-only resize must give each level back unchanged.
        let image = Image(
            width: 6, height: 256, pixelFormat: .gray8,
            pixels: (0..<256).flatMap { [UInt8](repeating: UInt8($0), count: 6) })
        let resized = try image.resized(width: 2, height: 256, options: ResizeOptions(linearLight: true))
        #expect(resized.pixels == (0..<256).flatMap { [UInt8($0), UInt8($0)] })
    }

    @Test(arguments: ResizeFilter.allCases, [64, 1000])
    func aRampStaysARamp(filter: ResizeFilter, outputWidth: Int) throws {
        let ramp = Image(width: 256, height: 2, pixelFormat: .gray8, pixels: (0..<512).map { UInt8($0 % 256) })
        let resized = try ramp.resized(width: outputWidth, height: 2, filter: filter)
        let row = resized.pixels.prefix(outputWidth).map(Int.init)
        #expect(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 }, "not monotonic: \(row)")
        let first = try #require(row.first)
        let last = try #require(row.last)
        #expect(first <= 3 && last >= 252)
        #expect(Array(resized.pixels.suffix(outputWidth)) == Array(resized.pixels.prefix(outputWidth)))
    }

    @Test(arguments: ResizeFilter.allCases)
    func handlesOnePixelImagesAndRows(filter: ResizeFilter) throws {
        let dot = Image(width: 1, height: 1, pixelFormat: .rgba8, pixels: [10, 20, 30, 40])
        let grown = try dot.resized(width: 4, height: 3, filter: filter)
        #expect(grown.pixels == Array([UInt8]([10, 20, 30, 40]).repeated(12)))
        let row = Image(width: 5, height: 1, pixelFormat: .gray8, pixels: [0, 50, 100, 150, 200])
        let mean = try row.resized(width: 1, height: 1, filter: .box)
        #expect(mean.pixels == [100])
        let column = try row.resized(width: 1, height: 7, filter: filter)
        #expect(column.pixels.allSatisfy { abs(Int($0) - 100) <= 1 })
    }

    @Test func rejectsInvalidSizesAndKeepsTheSameSize() throws {
        let image = SyntheticImages.smooth(width: 8, height: 8, format: .rgb8)
        #expect(throws: ImageProcessingError.invalidSize(width: 0, height: 4)) {
            try image.resized(width: 0, height: 4)
        }
        #expect(throws: ImageProcessingError.invalidSize(width: 4, height: -1)) {
            try image.resized(width: 4, height: -1)
        }
        #expect(throws: ImageProcessingError.invalidSize(width: Int.max, height: 2)) {
            try image.resized(width: Int.max, height: 2)
        }
        #expect(try image.resized(width: 8, height: 8) == image)
    }
}

@Suite struct ResamplerRingTests {
    @Test(arguments: [true, false])
    func aRingSmallerThanTheWindowGivesTheSamePixels(wide: Bool) throws {
        // Downscaling 90 rows to 3 makes windows of 60 to 90 rows: far more than a two-row ring.
        let image = SyntheticImages.smooth(width: wide ? 40 : 8, height: 90, format: .rgba8)
        let outputWidth = wide ? 30 : 3
        var resampler = Resampler(
            sourceWidth: image.width, sourceHeight: image.height, outputWidth: outputWidth, outputHeight: 3,
            format: image.pixelFormat, filter: .lanczos3, linearLight: false)
        var roomy = Image(width: outputWidth, height: 3, pixelFormat: .rgba8)
        var tight = roomy
        image.withUnsafeBytes { source in
            roomy.withUnsafeMutableBytes {
                resampler.resampleRows(0..<3, source: source.baseAddress!, destination: $0.baseAddress!)
            }
            resampler.ringByteBudget = 1
            tight.withUnsafeMutableBytes {
                resampler.resampleRows(0..<3, source: source.baseAddress!, destination: $0.baseAddress!)
            }
        }
        #expect(resampler.vertical.maximumCount > 50)
        #expect(tight.pixels == roomy.pixels)
        #expect(try image.resized(width: outputWidth, height: 3).pixels == roomy.pixels)
    }

    @Test(arguments: [(60, 45, 20, 15), (20, 15, 61, 47)])
    func asksForSourceRowsInOrderForAStreamingDecoder(sizes: (Int, Int, Int, Int)) {
        let (width, height, outputWidth, outputHeight) = sizes
        let image = SyntheticImages.smooth(width: width, height: height, format: .rgb8)
        let resampler = Resampler(
            sourceWidth: width, sourceHeight: height, outputWidth: outputWidth, outputHeight: outputHeight,
            format: .rgb8, filter: .lanczos3, linearLight: false)
        var requested: [Int] = []
        var streamed = Image(width: outputWidth, height: outputHeight, pixelFormat: .rgb8)
        image.withUnsafeBytes { source in
            streamed.withUnsafeMutableBytes { destination in
                resampler.resampleRows(
                    0..<outputHeight,
                    sourceRow: { row in
                        requested.append(row)
                        return source.baseAddress! + row * image.bytesPerRow
                    }, destination: destination.baseAddress!)
            }
        }
        #expect(requested == Array(0..<height))
        #expect(streamed == (try? image.resized(width: outputWidth, height: outputHeight)))
    }
}

extension Array {
    /// The elements repeated `count` times, one copy after another.
    fileprivate func repeated(_ count: Int) -> [Element] { (0..<count).flatMap { _ in self } }
}
