// pixpipe-examples: writes the built-in example images that `scripts/demo` works on, using only
// Pixpipe's public API. It doubles as a compiled example of the library (the README quotes it).
//
//   pixpipe-examples DIR    writes photo.jpg, rotated.jpg, phone.heic, logo.png, deep.png, broken.jpg into DIR
import Foundation
import Pixpipe

/// A smooth, colourful test picture with some detail, so thumbnails have something to show.
func makePicture(width: Int, height: Int) -> Image {
    var image = Image(width: width, height: height, pixelFormat: .rgb8)
    image.withUnsafeMutableBytes { pixels in
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x) / Double(width)
                let v = Double(y) / Double(height)
                let rings = 0.5 + 0.5 * sin(40 * ((u - 0.5) * (u - 0.5) + (v - 0.5) * (v - 0.5)).squareRoot())
                let offset = (y * width + x) * 3
                pixels[offset] = UInt8(255 * u * rings)
                pixels[offset + 1] = UInt8(255 * v)
                pixels[offset + 2] = UInt8(255 * (1 - u) * (1 - rings * 0.5))
            }
        }
    }
    return image
}

/// A logo with transparent surroundings: an opaque disc on a clear background.
func makeLogo(size: Int) -> Image {
    var image = Image(width: size, height: size, pixelFormat: .rgba8)
    let centre = Double(size) / 2
    for y in 0..<size {
        for x in 0..<size {
            let distance = ((Double(x) - centre) * (Double(x) - centre) + (Double(y) - centre) * (Double(y) - centre))
                .squareRoot()
            guard distance < centre * 0.8 else { continue }
            image[x: x, y: y, channel: 0] = 230
            image[x: x, y: y, channel: 1] = 80
            image[x: x, y: y, channel: 2] = 20
            image[x: x, y: y, channel: 3] = 255
        }
    }
    return image
}

/// A 16-bit gray ramp, the kind of image that loses information when reduced to 8 bits.
func makeDeepRamp(width: Int, height: Int) -> Image {
    var image = Image(width: width, height: height, pixelFormat: PixelFormat(layout: .gray, bitsPerSample: 16))
    for y in 0..<height {
        for x in 0..<width { image[x: x, y: y, channel: 0] = x * 65535 / (width - 1) }
    }
    return image
}

func write(_ data: Data, to directory: URL, _ name: String) throws {
    try data.write(to: directory.appendingPathComponent(name), options: .atomic)
    print(directory.appendingPathComponent(name).path)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let directoryPath = arguments.first, !directoryPath.hasPrefix("-") else {
    FileHandle.standardError.write(Data("usage: pixpipe-examples DIR\n".utf8))
    exit(2)
}
let directory = URL(fileURLWithPath: directoryPath, isDirectory: true)
do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let picture = makePicture(width: 3000, height: 2000)
    try write(picture.encoded(as: .jpeg(quality: 90)), to: directory, "photo.jpg")

    // The same picture stored sideways, as a phone would, with an EXIF tag saying how to turn it.
    var sideways = picture.transformed(by: .left)
    sideways.metadata.orientation = .right
    let rotated = try sideways.encoded(as: .jpeg(quality: 90))
    try write(rotated, to: directory, "rotated.jpg")

    // An iPhone-like HEIC: the picture stored turned, with an `irot` box saying how to show it upright,
    // tagged Display P3 (phones shoot in P3). Written by Pixpipe's own HEIC encoder, at 1200x800 so the demo
    // stays fast.
    var phone = makePicture(width: 1200, height: 800).transformed(by: .left)
    phone.metadata.orientation = .right
    phone.metadata.iccProfile = ColorProfile.displayP3.iccData
    try write(phone.encoded(as: .heif(quality: 80)), to: directory, "phone.heic")

    try write(makeLogo(size: 512).encoded(as: .png), to: directory, "logo.png")
    try write(makeDeepRamp(width: 1024, height: 64).encoded(as: .png), to: directory, "deep.png")
    // A download cut short: the decoder must refuse it in strict mode.
    try write(rotated.prefix(rotated.count / 2), to: directory, "broken.jpg")

    // Decoding sniffs the bytes; orientation is metadata until applied.
    let decoded = try Image(contentsOfFile: directory.appendingPathComponent("rotated.jpg").path)
    let upright = decoded.applyingOrientation()
    let small = try upright.resized(width: 300, height: 200)
    FileHandle.standardError.write(
        Data(
            "rotated.jpg: stored \(decoded.width)x\(decoded.height) \(decoded.metadata.orientation), upright \(upright.width)x\(upright.height), PSNR of a 300x200 resize vs the original: \(String(format: "%.1f", small.psnr(try picture.resized(width: 300, height: 200)))) dB\n"
                .utf8))
} catch {
    FileHandle.standardError.write(Data("pixpipe-examples: \(error)\n".utf8))
    exit(1)
}
