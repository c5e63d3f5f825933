import CLibLCMS2
import Dispatch

/// A built Little CMS transform from one pixel format in one profile to another, deleted when released.
///
/// `@unchecked Sendable`: the handle is never mutated after it is built, and it is built with
/// `cmsFLAGS_NOCACHE`, which Little CMS documents as what makes `cmsDoTransform` safe to call from several
/// threads at once on one transform (without it, the transform keeps a one-pixel cache).
final class ColorTransform: @unchecked Sendable {
    /// The lcms2 handle.
    private let handle: cmsHTRANSFORM
    /// Bytes per input pixel.
    let inputBytesPerPixel: Int
    /// Bytes per output pixel.
    let outputBytesPerPixel: Int

    /// Builds the transform; profiles are only read while building.
    init(
        from source: LCMSProfile, format inputFormat: LCMSPixelType, to target: LCMSProfile,
        format outputFormat: LCMSPixelType, intent: RenderingIntent, blackPointCompensation: Bool
    ) throws(ImageProcessingError) {
        var flags = UInt32(cmsFLAGS_NOCACHE)
        if inputFormat.hasExtraChannel { flags |= UInt32(cmsFLAGS_COPY_ALPHA) }
        if blackPointCompensation { flags |= UInt32(cmsFLAGS_BLACKPOINTCOMPENSATION) }
        let created = LCMS.call {
            cmsCreateTransform(
                source.handle, inputFormat.code, target.handle, outputFormat.code, intent.lcmsCode, flags)
        }
        guard let handle = created.result else {
            throw .colorTransformFailed(reason: created.message ?? "Little CMS could not link the two profiles")
        }
        self.handle = handle
        inputBytesPerPixel = inputFormat.bytesPerPixel
        outputBytesPerPixel = outputFormat.bytesPerPixel
    }

    deinit { cmsDeleteTransform(handle) }

    /// Pixels per band: large images are split across cores in bands of this many pixels (and every
    /// call's count fits lcms2's 32-bit size).
    private static let bandPixels = 1 << 18

    /// Transforms `pixelCount` pixels from `input` into `output`; alpha is copied unchanged.
    func apply(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, pixelCount: Int) {
        precondition(
            input.count >= pixelCount * inputBytesPerPixel && output.count >= pixelCount * outputBytesPerPixel,
            "buffers too small")
        guard pixelCount > 0, let source = input.baseAddress, let target = output.baseAddress else { return }
        let bands = (pixelCount + Self.bandPixels - 1) / Self.bandPixels
        // The same reasoning as a resize's bands (see ResampleBuffers): each band writes its own pixels, and
        // concurrentPerform returns before the caller's buffers go away.
        let buffers = ResampleBuffers(source: source, destination: target)
        let (inputStride, outputStride) = (inputBytesPerPixel, outputBytesPerPixel)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            let first = band * Self.bandPixels
            let count = min(Self.bandPixels, pixelCount - first)
            cmsDoTransform(
                self.handle, buffers.source + first * inputStride, buffers.destination + first * outputStride,
                UInt32(count))
        }
    }
}

/// A Little CMS pixel format code (`TYPE_RGBA_8` and the like), built from the bit fields `lcms2.h`
/// defines with macros Swift does not import.
struct LCMSPixelType: Hashable {
    /// The code.
    let code: UInt32
    /// Bytes per pixel.
    let bytesPerPixel: Int
    /// Whether an alpha channel follows the colour channels.
    let hasExtraChannel: Bool

    /// The format of `colorChannels` colour channels of `space` (lcms2's PT_ value) plus `extra` channels,
    /// `bytesPerSample` each; `inverted` marks Adobe's inverted CMYK (lcms2's FLAVOR bit).
    init(space: UInt32, colorChannels: Int, extra: Int, bytesPerSample: Int, inverted: Bool = false) {
        // COLORSPACE_SH(s) = s << 16, FLAVOR_SH(f) = f << 13, EXTRA_SH(e) = e << 7, CHANNELS_SH(c) = c << 3,
        // BYTES_SH(b) = b; 16-bit samples in native byte order need no ENDIAN16 bit.
        code =
            space << 16 | (inverted ? 1 << 13 : 0) | UInt32(extra) << 7 | UInt32(colorChannels) << 3
            | UInt32(bytesPerSample)
        bytesPerPixel = (colorChannels + extra) * bytesPerSample
        hasExtraChannel = extra > 0
    }

    /// The format of an ``Image`` of `format` whose colour is in `space` (gray or RGB).
    init(_ format: PixelFormat, space: ColorProfile.Space) {
        let isGray = space == .gray
        self.init(
            space: UInt32(isGray ? PT_GRAY : PT_RGB), colorChannels: isGray ? 1 : 3,
            extra: format.layout.hasAlpha ? 1 : 0, bytesPerSample: format.bytesPerSample)
    }
}
