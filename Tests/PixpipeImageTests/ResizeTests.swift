import Testing

@testable import PixpipeImage

@Suite struct ResizeTests {
    @Test(arguments: ResizeFilter.allCases, [(16, 16), (7, 5), (33, 9)])
    func transparentPixelsDoNotBleedColour(filter: ResizeFilter, size: (Int, Int)) throws {
        // Left half fully transparent red, right half opaque green.
        var image = Image(width: 64, height: 64, pixelFormat: .rgba8)
        for y in 0..<64 {
            for x in 0..<64 {
                let opaque = x >= 32
                image[x: x, y: y, channel: 0] = opaque ? 0 : 255
                image[x: x, y: y, channel: 1] = opaque ? 255 : 0
                image[x: x, y: y, channel: 3] = opaque ? 255 : 0
            }
        }
        let small = try image.resized(width: size.0, height: size.1, filter: filter)
        var sawEdge = false
        for y in 0..<small.height {
            for x in 0..<small.width where small[x: x, y: y, channel: 3] > 0 {
                #expect(small[x: x, y: y, channel: 0] <= 1, "red leaked at \(x),\(y)")
                #expect(small[x: x, y: y, channel: 1] >= 254, "green darkened at \(x),\(y)")
                let alpha = small[x: x, y: y, channel: 3]
                if alpha > 0 && alpha < 255 { sawEdge = true }
            }
        }
        #expect(sawEdge || filter == .box)
    }

    @Test(arguments: [ResizeFilter.box, .lanczos3])
    func linearLightKeepsTheBrightnessOfACheckerboard(filter: ResizeFilter) throws {
        let board = SyntheticImages.checkerboard(size: 64)
        let plain = try board.resized(width: 8, height: 8, filter: filter)
        let linear = try board.resized(width: 8, height: 8, filter: filter, options: ResizeOptions(linearLight: true))
        #expect(plain.pixels.allSatisfy { (126...129).contains($0) }, "\(plain.pixels)")
        #expect(linear.pixels.allSatisfy { (186...189).contains($0) }, "\(linear.pixels)")
    }

    @Test(arguments: [PixelLayout.gray, .rgb, .rgba], [false, true])
    func sixteenBitMatchesEightBit(layout: PixelLayout, linearLight: Bool) throws {
        let eight = SyntheticImages.smooth(width: 48, height: 36, format: PixelFormat(layout: layout))
        let sixteen = eight.converted(to: PixelFormat(layout: layout, bitsPerSample: 16))
        let options = ResizeOptions(linearLight: linearLight)
        for (width, height) in [(13, 10), (100, 70)] {
            let small8 = try eight.resized(width: width, height: height, options: options)
            let small16 = try sixteen.resized(width: width, height: height, options: options)
            #expect(small16.pixelFormat.bitsPerSample == 16)
            let rounded16 = small16.samples16.map { (Int($0) + 128) / 257 }
            let differences = zip(rounded16, small8.pixels).map { abs($0 - Int($1)) }
            #expect(differences.allSatisfy { $0 <= 1 })
        }
    }

    @Test(arguments: [PixelFormat.rgb8, .rgba8, .gray8, PixelFormat(layout: .rgb, bitsPerSample: 16)])
    func closeToTheFloatingPointReference(format: PixelFormat) throws {
        let image = SyntheticImages.smooth(width: 96, height: 72, format: format)
        for (width, height) in [(37, 23), (96, 40), (150, 110)] {
            let fast = try image.resized(width: width, height: height, filter: .lanczos3)
            let reference = image.referenceResized(width: width, height: height)
            #expect(fast.psnr(reference) > 45, "\(format) to \(width)x\(height)")
        }
    }

    @Test func parallelBandsMatchOneThread() throws {
        // Large enough that the default options split the rows into bands.
        let image = SyntheticImages.smooth(width: 640, height: 420, format: .rgb8)
        let serial = try image.resized(width: 150, height: 101, options: ResizeOptions(maximumConcurrency: 1))
        let parallel = try image.resized(width: 150, height: 101)
        #expect(parallel == serial)
    }

    @Test func keepsMetadata() throws {
        var image = SyntheticImages.smooth(width: 20, height: 10, format: .rgb8)
        image.metadata.iccProfile = [9, 9]
        image.metadata.sourceFormat = .jpeg
        let small = try image.resized(width: 5, height: 3)
        #expect(small.metadata == image.metadata)
        #expect(small.width == 5 && small.height == 3)
    }

    @Test func psnrMeasuresOnTheEightBitScale() {
        let zeros = Image(width: 2, height: 2, pixelFormat: .gray8, pixels: [0, 0, 0, 0])
        let ones = Image(width: 2, height: 2, pixelFormat: .gray8, pixels: [1, 1, 1, 1])
        #expect(zeros.psnr(zeros) == .infinity)
        #expect(abs(zeros.psnr(ones) - 48.1308) < 1e-3)  // 10 log10(255²)
        let wide = ones.converted(to: PixelFormat(layout: .gray, bitsPerSample: 16))
        #expect(wide.psnr(ones) == .infinity)
    }
}
