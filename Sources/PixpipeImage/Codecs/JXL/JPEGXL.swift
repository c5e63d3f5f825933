import CPixpipeJXL
import Foundation

/// Lossless JPEG recompression: a JPEG's DCT coefficients stored in JPEG XL with the data that rebuilds the
/// original file byte for byte (libjxl's JPEG reconstruction).
public enum JPEGXL {
    /// Why a JPEG could not be recompressed, or a JPEG not rebuilt.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The input is not a JPEG file (no `FF D8 FF` start).
        case notJPEG
        /// The JPEG XL file holds no JPEG reconstruction data (it was not made from a JPEG losslessly).
        case noReconstructionData
        /// libjxl refused the input; `reason` says where.
        case library(String)
        /// The image is refused before libjxl allocates for it (over the pixel limit, or an unreadable header).
        case image(ImageDecodingError)

        /// A one-line explanation for people.
        public var description: String {
            switch self {
            case .notJPEG: "not a JPEG file"
            case .noReconstructionData: "the JPEG XL file holds no JPEG reconstruction data"
            case .library(let reason): "libjxl: \(reason)"
            case .image(let error): error.description
            }
        }

        /// The stable name of the case, as in the README's error table.
        public var shortName: String {
            switch self {
            case .notJPEG: "jxl-not-jpeg"
            case .noReconstructionData: "jxl-no-jpeg-reconstruction"
            case .library: "jxl-library"
            case .image(let error): error.shortName
            }
        }
    }

    /// Recompresses `jpeg` losslessly into JPEG XL, keeping what rebuilds the identical JPEG file; a JPEG
    /// whose header declares more than `pixelLimit` pixels is refused before libjxl reads its coefficients.
    public static func recompressing(
        jpeg: Data, effort: Int = JXLEncodeOptions.defaultEffort,
        pixelLimit: Int? = DecodeOptions.defaultPixelLimit
    ) throws(Failure) -> Data {
        guard jpeg.starts(with: [0xFF, 0xD8, 0xFF]) else { throw .notJPEG }
        do {
            let info = try Image.info(data: jpeg, options: DecodeOptions(byteLimit: nil))
            try DecodeOptions(pixelLimit: pixelLimit).checkPixels(width: info.width, height: info.height)
        } catch {
            throw .image(error)
        }
        let session: JXLEncoder.Session
        do { session = try JXLEncoder.Session() } catch { throw .library("\(error)") }
        guard pxp_JxlEncoderUseContainer(session.encoder, 1) == JXL_ENC_SUCCESS,
            pxp_JxlEncoderStoreJPEGMetadata(session.encoder, 1) == JXL_ENC_SUCCESS,
            let settings = pxp_JxlEncoderFrameSettingsCreate(session.encoder)
        else { throw .library("encoder set-up refused") }
        _ = pxp_JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(effort))
        let added = jpeg.withUnsafeBytes { raw in
            pxp_JxlEncoderAddJPEGFrame(settings, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
        }
        guard added == JXL_ENC_SUCCESS else {
            throw .library("the JPEG was refused (error \(pxp_JxlEncoderGetError(session.encoder).rawValue))")
        }
        pxp_JxlEncoderCloseInput(session.encoder)
        do { return try session.output() } catch { throw .library("\(error)") }
    }

    /// The JPEG file `jxl` was recompressed from, byte for byte, when the file holds reconstruction data;
    /// an image over `pixelLimit` pixels is refused from the basic info, before libjxl allocates for it.
    public static func reconstructedJPEG(
        from jxl: Data, pixelLimit: Int? = DecodeOptions.defaultPixelLimit
    ) throws(Failure) -> Data {
        try jxl.withTypedBytes { (bytes) throws(Failure) in try reconstruct(bytes, pixelLimit: pixelLimit) }
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

    private static func reconstruct(_ bytes: UnsafeRawBufferPointer, pixelLimit: Int?) throws(Failure) -> Data {
        let handle: JXLDecoderHandle
        do {
            handle = try JXLDecoderHandle(
                bytes: bytes, events: [JXL_DEC_BASIC_INFO, JXL_DEC_JPEG_RECONSTRUCTION, JXL_DEC_FULL_IMAGE],
                threads: true)
        } catch { throw .library("\(error)") }
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
            let status: JxlDecoderStatus
            do { status = try handle.next() } catch { throw .library("\(error)") }
            switch status {
            case JXL_DEC_BASIC_INFO:
                do {
                    let info = try handle.basicInfo()
                    try DecodeOptions(pixelLimit: pixelLimit).checkPixels(
                        width: Int(info.xsize), height: Int(info.ysize))
                } catch { throw .image(error) }
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
                throw .noReconstructionData
            case JXL_DEC_FULL_IMAGE, JXL_DEC_SUCCESS:
                guard started else { throw .noReconstructionData }
                drain()
                return output
            default:
                continue
            }
        }
    }
}
