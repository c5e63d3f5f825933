import CPixpipeJXL
import Foundation

/// Lossless JPEG recompression: a JPEG's DCT coefficients stored in JPEG XL with the data that rebuilds the
/// original file byte for byte (libjxl's JPEG reconstruction).
public enum JPEGXL {
    /// Recompresses `jpeg` losslessly into JPEG XL, keeping what rebuilds the identical JPEG file; a JPEG
    /// whose header declares more than `pixelLimit` pixels is refused before libjxl reads its coefficients.
    ///
    /// An encoding step: input that is not a JPEG is ``ImageEncodingError/notJPEG``, a JPEG whose header
    /// cannot be read or is over the limit ``ImageEncodingError/source(_:)``, and a refusal by libjxl
    /// ``ImageEncodingError/libraryFailure(format:reason:)``.
    public static func recompressing(
        jpeg: Data, effort: Int = JXLEncodeOptions.defaultEffort,
        pixelLimit: Int? = DecodeOptions.defaultPixelLimit
    ) throws(ImageEncodingError) -> Data {
        guard jpeg.starts(with: [0xFF, 0xD8, 0xFF]) else { throw .notJPEG }
        do {
            let info = try Image.info(data: jpeg, options: DecodeOptions(byteLimit: nil))
            try DecodeOptions(pixelLimit: pixelLimit).checkPixels(width: info.width, height: info.height)
        } catch {
            throw .source(error)
        }
        let session = try JXLEncoder.Session()
        guard pxp_JxlEncoderUseContainer(session.encoder, 1) == JXL_ENC_SUCCESS,
            pxp_JxlEncoderStoreJPEGMetadata(session.encoder, 1) == JXL_ENC_SUCCESS,
            let settings = pxp_JxlEncoderFrameSettingsCreate(session.encoder)
        else { throw .libraryFailure(format: .jxl, reason: "encoder set-up refused") }
        _ = pxp_JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(effort))
        let added = jpeg.withUnsafeBytes { raw in
            pxp_JxlEncoderAddJPEGFrame(settings, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
        }
        guard added == JXL_ENC_SUCCESS else {
            throw .libraryFailure(
                format: .jxl,
                reason: "the JPEG was refused (error \(pxp_JxlEncoderGetError(session.encoder).rawValue))")
        }
        pxp_JxlEncoderCloseInput(session.encoder)
        return try session.output()
    }

    /// The JPEG file `jxl` was recompressed from, byte for byte, when the file holds reconstruction data;
    /// an image over `pixelLimit` pixels is refused from the basic info, before libjxl allocates for it.
    ///
    /// A decoding step: a file without reconstruction data is ``ImageDecodingError/noJPEGReconstructionData``;
    /// damage and limits are the errors any JPEG XL decode gives.
    public static func reconstructedJPEG(
        from jxl: Data, pixelLimit: Int? = DecodeOptions.defaultPixelLimit
    ) throws(ImageDecodingError) -> Data {
        try jxl.withTypedBytes { (bytes) throws(ImageDecodingError) in
            try reconstruct(bytes, pixelLimit: pixelLimit)
        }
    }

    /// Whether `jxl` holds JPEG reconstruction data (read from its boxes; no pixels decoded).
    public static func hasReconstructionData(_ jxl: Data) -> Bool {
        guard let codec = ImageCodecs.sniff(jxl), codec.format == .jxl else { return false }
        return jxl.withUnsafeBytes { bytes in
            // libjxl reports the reconstruction box only while it is set to decode the image.
            guard
                let handle = try? JXLDecoderHandle(
                    bytes: bytes, events: [JXL_DEC_JPEG_RECONSTRUCTION, JXL_DEC_FULL_IMAGE])
            else { return false }
            return (try? handle.next()) == JXL_DEC_JPEG_RECONSTRUCTION
        }
    }

    private static func reconstruct(
        _ bytes: UnsafeRawBufferPointer, pixelLimit: Int?
    ) throws(ImageDecodingError) -> Data {
        let handle = try JXLDecoderHandle(
            bytes: bytes, events: [JXL_DEC_BASIC_INFO, JXL_DEC_JPEG_RECONSTRUCTION, JXL_DEC_FULL_IMAGE],
            threads: true)
        var output = Data()
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        var started = false
        func setBuffer() {
            _ = pxp_JxlDecoderSetJPEGBuffer(
                handle.decoder, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), buffer.count)
        }
        func drain() {
            let remaining = pxp_JxlDecoderReleaseJPEGBuffer(handle.decoder)
            output.append(contentsOf: buffer[..<(buffer.count - remaining)])
        }
        while true {
            switch try handle.next() {
            case JXL_DEC_BASIC_INFO:
                let info = try handle.basicInfo()
                try DecodeOptions(pixelLimit: pixelLimit).checkPixels(width: Int(info.xsize), height: Int(info.ysize))
            case JXL_DEC_JPEG_RECONSTRUCTION:
                started = true
                setBuffer()
            case JXL_DEC_JPEG_NEED_MORE_OUTPUT:
                drain()
                if buffer.count < 64 << 20 {
                    buffer.deallocate()
                    buffer = .allocate(byteCount: buffer.count * 2, alignment: 1)
                }
                setBuffer()
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                // Only reached without reconstruction data: libjxl wants pixels instead.
                throw .noJPEGReconstructionData
            case JXL_DEC_FULL_IMAGE, JXL_DEC_SUCCESS:
                guard started else { throw .noJPEGReconstructionData }
                drain()
                return output
            default:
                continue
            }
        }
    }
}
