import Testing

@testable import PixpipeImage

@Suite struct OrientationTests {
    /// The upright layout of a stored 3x2 image labelled 1 2 3 / 4 5 6, for each orientation.
    static let expectedLayouts: [Orientation: [[Int]]] = [
        .up: [[1, 2, 3], [4, 5, 6]],
        .upMirrored: [[3, 2, 1], [6, 5, 4]],
        .down: [[6, 5, 4], [3, 2, 1]],
        .downMirrored: [[4, 5, 6], [1, 2, 3]],
        .leftMirrored: [[1, 4], [2, 5], [3, 6]],
        .right: [[4, 1], [5, 2], [6, 3]],
        .rightMirrored: [[6, 3], [5, 2], [4, 1]],
        .left: [[3, 6], [2, 5], [1, 4]],
    ]

    static let formats: [PixelFormat] = PixelLayout.allCases.flatMap { layout in
        [PixelFormat(layout: layout, bitsPerSample: 8), PixelFormat(layout: layout, bitsPerSample: 16)]
    }

    /// The sample stored for pixel `label` (1-based) in `channel`: distinct for every pixel and channel.
    static func sample(label: Int, channel: Int, format: PixelFormat) -> Int {
        let value = label * 16 + channel
        return format.bitsPerSample == 16 ? value * 257 : value
    }

    /// A `width` x `height` image whose pixel n (row-major, 1-based) holds `sample(label: n, ...)`.
    static func labelled(width: Int, height: Int, format: PixelFormat) -> Image {
        var image = Image(width: width, height: height, pixelFormat: format)
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<format.channels {
                    image[x: x, y: y, channel: channel] = sample(
                        label: y * width + x + 1, channel: channel, format: format)
                }
            }
        }
        return image
    }

    @Test(arguments: Orientation.allCases, formats)
    func mapsALabelledImageToTheUprightLayout(orientation: Orientation, format: PixelFormat) throws {
        let stored = Self.labelled(width: 3, height: 2, format: format)
        let upright = stored.transformed(by: orientation)
        let layout = try #require(Self.expectedLayouts[orientation])
        #expect(upright.width == layout[0].count)
        #expect(upright.height == layout.count)
        #expect(upright.pixelFormat == format)
        for (y, row) in layout.enumerated() {
            for (x, label) in row.enumerated() {
                for channel in 0..<format.channels {
                    #expect(
                        upright[x: x, y: y, channel: channel]
                            == Self.sample(label: label, channel: channel, format: format))
                }
            }
        }
        #expect(upright.metadata.orientation == .up)
    }

    @Test(arguments: Orientation.allCases, formats)
    func inverseRoundTrips(orientation: Orientation, format: PixelFormat) {
        // Larger than one 64-pixel tile, and not square, so tiling and stepping are both exercised.
        let original = Self.labelled(width: 70, height: 3, format: format)
        let back = original.transformed(by: orientation).transformed(by: orientation.inverse)
        #expect(back.width == original.width && back.height == original.height)
        #expect(back.pixels == original.pixels)
    }

    @Test func quarterTurnsAreInversesOfEachOther() {
        let turns = Orientation.allCases.filter { $0.inverse != $0 }
        #expect(Set(turns) == [.right, .left])
        #expect(Orientation.right.inverse == .left)
    }

    @Test func applyingOrientationUsesAndClearsTheMetadata() {
        var stored = Self.labelled(width: 3, height: 2, format: .gray8)
        stored.metadata.orientation = .right
        let upright = stored.applyingOrientation()
        #expect(upright.width == 2 && upright.height == 3)
        #expect(upright.pixels == [4, 1, 5, 2, 6, 3].map { UInt8($0 * 16) })
        #expect(upright.metadata.orientation == .up)
        #expect(upright.applyingOrientation() == upright)
    }

    @Test(arguments: [false, true])
    func patchesTheEXIFOrientationTagToUp(bigEndian: Bool) throws {
        var stored = Self.labelled(width: 3, height: 2, format: .rgb8)
        let block = EXIFReaderTests.tiff(orientation: 8, bigEndian: bigEndian)
        stored.metadata.exif = block
        stored.metadata.orientation = .left
        let upright = stored.applyingOrientation()
        let exif = try #require(upright.metadata.exif)
        #expect(exif.count == block.count)
        #expect(EXIFReader.orientation(tiff: exif) == .up)
        // Only the two value bytes changed.
        #expect(zip(exif, block).filter { $0 != $1 }.count == 1)
    }

    @Test func leavesAnEXIFBlockWithoutOrientationAlone() {
        var stored = Self.labelled(width: 3, height: 2, format: .gray8)
        let malformed: [UInt8] = [0x49, 0x49, 42, 0, 0xFF, 0xFF, 0xFF, 0x7F]
        stored.metadata.exif = malformed
        #expect(stored.transformed(by: .down).metadata.exif == malformed)
    }
}
