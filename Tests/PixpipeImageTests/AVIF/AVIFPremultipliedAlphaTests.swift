import CLibAVIF
import Foundation
import Testing

@testable import PixpipeImage

/// Files whose colour is stored multiplied by alpha (libavif's `alphaPremultiplied`, the `prem` reference)
/// decode to straight alpha, as every ``Image`` holds.
///
/// The package's encoder writes straight alpha only, so the files are written here with libavif directly,
/// losslessly (4:4:4, identity matrix, quantizer 0): what remains is the rounding of premultiplying 8-bit
/// samples and dividing them back. libavif does both through libyuv's fixed-point attenuation (Debian
/// links it), which lands a level or two above exact rounding, so the bound is one premultiplied step:
/// 255 / alpha + 1 levels (measured worst: exactly that); alpha itself is exact.
@Suite("AVIF premultiplied alpha decodes to straight alpha")
struct AVIFPremultipliedAlphaTests {
    /// Colour noise over alpha from 32 to 255 (fully transparent pixels have no colour to compare).
    static func original() -> Image {
        var image = TestImages.noise(width: 48, height: 32, format: .rgba8)
        for y in 0..<image.height {
            for x in 0..<image.width { image[x: x, y: y, channel: 3] = 32 + (x * 7 + y * 13) % 224 }
        }
        return image
    }

    /// `image` written losslessly by libavif, its colour premultiplied by alpha when `premultiplied` is set.
    static func encode(_ image: Image, premultiplied: Bool) throws -> Data {
        let avif = try #require(avifImageCreate(UInt32(image.width), UInt32(image.height), 8, AVIF_PIXEL_FORMAT_YUV444))
        defer { avifImageDestroy(avif) }
        avif.pointee.yuvRange = AVIF_RANGE_FULL
        avif.pointee.matrixCoefficients = avifMatrixCoefficients(AVIF_MATRIX_COEFFICIENTS_IDENTITY)
        // With the image flagged and the RGB not, avifImageRGBToYUV premultiplies as it converts.
        avif.pointee.alphaPremultiplied = premultiplied ? 1 : 0
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, avif)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.rowBytes = UInt32(image.bytesPerRow)
        var pixels = image.pixels
        let converted = pixels.withUnsafeMutableBufferPointer { buffer in
            rgb.pixels = buffer.baseAddress
            return avifImageRGBToYUV(avif, &rgb)
        }
        #expect(converted == AVIF_RESULT_OK)
        let encoder = try #require(avifEncoderCreate())
        defer { avifEncoderDestroy(encoder) }
        encoder.pointee.speed = 10
        encoder.pointee.minQuantizer = 0
        encoder.pointee.maxQuantizer = 0
        encoder.pointee.minQuantizerAlpha = 0
        encoder.pointee.maxQuantizerAlpha = 0
        var output = avifRWData(data: nil, size: 0)
        defer { avifRWDataFree(&output) }
        #expect(avifEncoderWrite(encoder, avif, &output) == AVIF_RESULT_OK)
        let bytes = try #require(output.data)
        return Data(bytes: bytes, count: output.size)
    }

    /// Whether libavif reads the file as premultiplied, and its samples as stored (premultiplied if so).
    static func storedByLibAVIF(_ data: Data) throws -> (premultiplied: Bool, pixels: [UInt8]) {
        let decoder = try #require(avifDecoderCreate())
        defer { avifDecoderDestroy(decoder) }
        let result = data.withUnsafeBytes { raw in
            avifDecoderSetIOMemory(decoder, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
            return avifDecoderParse(decoder) == AVIF_RESULT_OK
                ? avifDecoderNextImage(decoder) : AVIF_RESULT_UNKNOWN_ERROR
        }
        #expect(result == AVIF_RESULT_OK)
        let image = decoder.pointee.image!
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        // Asking for premultiplied RGB from a premultiplied file skips libavif's division.
        rgb.alphaPremultiplied = image.pointee.alphaPremultiplied
        let width = Int(image.pointee.width)
        rgb.rowBytes = UInt32(width * 4)
        var pixels = [UInt8](repeating: 0, count: width * Int(image.pointee.height) * 4)
        let converted = pixels.withUnsafeMutableBufferPointer { buffer in
            rgb.pixels = buffer.baseAddress
            return avifImageYUVToRGB(image, &rgb)
        }
        #expect(converted == AVIF_RESULT_OK)
        return (image.pointee.alphaPremultiplied != 0, pixels)
    }

    @Test("a premultiplied file decodes to the straight original, within 255 / alpha + 1 levels")
    func premultiplied() throws {
        let original = Self.original()
        let data = try Self.encode(original, premultiplied: true)
        let stored = try Self.storedByLibAVIF(data)
        #expect(stored.premultiplied)
        // The file really holds multiplied colour: as stored it is far from the original.
        #expect(stored.pixels != original.pixels)

        for strictness in [DecodeOptions.Strictness.strict, .lenient] {
            let decoded = try Image(data: data, options: DecodeOptions(strictness: strictness))
            #expect(decoded.pixelFormat == .rgba8 && decoded.width == original.width)
            var worst = 0
            for y in 0..<original.height {
                for x in 0..<original.width {
                    let alpha = original[x: x, y: y, channel: 3]
                    #expect(decoded[x: x, y: y, channel: 3] == alpha)
                    let tolerance = 255 / alpha + 1
                    for channel in 0..<3 {
                        let error = abs(decoded[x: x, y: y, channel: channel] - original[x: x, y: y, channel: channel])
                        worst = max(worst, error - tolerance)
                    }
                }
            }
            #expect(worst <= 0, "a colour sample is off by \(worst) levels beyond 255 / alpha + 1")
        }
    }

    @Test("the control: the same image written straight decodes exactly")
    func straight() throws {
        let original = Self.original()
        let data = try Self.encode(original, premultiplied: false)
        #expect(try Self.storedByLibAVIF(data).premultiplied == false)
        #expect(try Image(data: data).pixels == original.pixels)
    }
}
