/// Where each pixel of an oriented image comes from, as an affine map of pixel coordinates.
///
/// The output pixel (x, y) is the source pixel at `origin + x * stepX + y * stepY`, in pixel units of
/// the source buffer, so one copy loop serves all eight orientations.
struct OrientationMapping {
    /// The width of the transformed image.
    let outputWidth: Int
    /// The height of the transformed image.
    let outputHeight: Int
    /// The source pixel index of output pixel (0, 0).
    private let origin: Int
    /// How far the source index moves for one step right in the output.
    private let stepX: Int
    /// How far the source index moves for one step down in the output.
    private let stepY: Int

    /// The mapping of `orientation` over a stored image of `width` x `height` pixels.
    init(orientation: Orientation, width: Int, height: Int) {
        // Source pixel (sx, sy) has index sy * width + sx; each case writes sx and sy as functions of
        // the output (x, y), following the EXIF definition of the eight orientations.
        let (originX, originY, xDX, yDX, xDY, yDY): (Int, Int, Int, Int, Int, Int)
        switch orientation {
        case .up: (originX, originY, xDX, yDX, xDY, yDY) = (0, 0, 1, 0, 0, 1)  // (x, y)
        case .upMirrored: (originX, originY, xDX, yDX, xDY, yDY) = (width - 1, 0, -1, 0, 0, 1)  // (w-1-x, y)
        case .down: (originX, originY, xDX, yDX, xDY, yDY) = (width - 1, height - 1, -1, 0, 0, -1)
        case .downMirrored: (originX, originY, xDX, yDX, xDY, yDY) = (0, height - 1, 1, 0, 0, -1)  // (x, h-1-y)
        case .leftMirrored: (originX, originY, xDX, yDX, xDY, yDY) = (0, 0, 0, 1, 1, 0)  // (y, x)
        case .right: (originX, originY, xDX, yDX, xDY, yDY) = (0, height - 1, 0, -1, 1, 0)  // (y, h-1-x)
        case .rightMirrored:  // (w-1-y, h-1-x)
            (originX, originY, xDX, yDX, xDY, yDY) = (width - 1, height - 1, 0, -1, -1, 0)
        case .left: (originX, originY, xDX, yDX, xDY, yDY) = (width - 1, 0, 0, 1, -1, 0)  // (w-1-y, x)
        }
        outputWidth = orientation.swapsDimensions ? height : width
        outputHeight = orientation.swapsDimensions ? width : height
        origin = originY * width + originX
        stepX = yDX * width + xDX
        stepY = yDY * width + xDY
    }

    /// Copies every pixel; `destination` holds `outputWidth * outputHeight` pixels.
    ///
    /// Works in square tiles so that the column-wise reads of a rotation stay in cache.
    func copyPixels(
        from source: UnsafeRawBufferPointer, to destination: UnsafeMutableRawBufferPointer, bytesPerPixel: Int
    ) {
        guard let sourceBase = source.baseAddress, let destinationBase = destination.baseAddress else { return }
        switch bytesPerPixel {
        case 1: copyTiles(sourceBase, destinationBase, as: UInt8.self)
        case 2: copyTiles(sourceBase, destinationBase, as: UInt16.self)
        case 3: copyTiles(sourceBase, destinationBase, as: (UInt8, UInt8, UInt8).self)
        case 4: copyTiles(sourceBase, destinationBase, as: UInt32.self)
        case 6: copyTiles(sourceBase, destinationBase, as: (UInt16, UInt16, UInt16).self)
        default:
            precondition(bytesPerPixel == 8, "pixel formats have 1, 2, 3, 4, 6 or 8 bytes per pixel")
            copyTiles(sourceBase, destinationBase, as: UInt64.self)
        }
    }

    /// The tiled copy loop, with the pixel moved as one value of type `Pixel` (its size is bytesPerPixel).
    private func copyTiles<Pixel>(_ source: UnsafeRawPointer, _ destination: UnsafeMutableRawPointer, as: Pixel.Type) {
        let tile = 64
        let size = MemoryLayout<Pixel>.size
        for tileY in stride(from: 0, to: outputHeight, by: tile) {
            for tileX in stride(from: 0, to: outputWidth, by: tile) {
                let endX = min(tileX + tile, outputWidth)
                for y in tileY..<min(tileY + tile, outputHeight) {
                    var sourceIndex = origin + y * stepY + tileX * stepX
                    var destinationOffset = (y * outputWidth + tileX) * size
                    for _ in tileX..<endX {
                        let pixel = source.loadUnaligned(fromByteOffset: sourceIndex * size, as: Pixel.self)
                        destination.storeBytes(of: pixel, toByteOffset: destinationOffset, as: Pixel.self)
                        sourceIndex += stepX
                        destinationOffset += size
                    }
                }
            }
        }
    }
}
