import CPixpipeImage
import Foundation

/// libjpeg's compressor writing into memory, one step at a time.
///
/// The steps run in order: `init` applies the settings and writes the file's first markers, then
/// ``writeMarker(_:payload:)`` and ``writeICCProfile(_:)``, ``writeRows(_:stride:count:)`` for every
/// row, and ``finish()``. A step that fails leaves the writer unusable.
final class JPEGWriter {
    /// The encoder handle; owned, freed in `deinit`.
    private let handle: OpaquePointer

    /// Starts a `width` x `height` file; `dotsPerInch` is written in the JFIF header when given.
    init(
        width: Int, height: Int, space: JPEGColorSpace, options: JPEGEncodeOptions,
        dotsPerInch: ImageMetadata.Resolution? = nil
    ) throws(ImageEncodingError) {
        guard let handle = pxp_jpeg_encoder_create() else {
            throw .libraryFailure(format: .jpeg, reason: "out of memory creating the encoder")
        }
        self.handle = handle
        var settings = pxp_jpeg_settings()
        settings.width = UInt32(clamping: width)
        settings.height = UInt32(clamping: height)
        settings.color_space = space.code
        settings.quality = Int32(options.quality)
        settings.progressive = options.progressive ? 1 : 0
        settings.optimize_coding = options.optimizesHuffmanTables ? 1 : 0
        settings.restart_rows = Int32(clamping: options.restartRows)
        switch options.chromaSubsampling {
        case .s444: (settings.luma_h_sampling, settings.luma_v_sampling) = (1, 1)
        case .s422: (settings.luma_h_sampling, settings.luma_v_sampling) = (2, 1)
        case .s420: (settings.luma_h_sampling, settings.luma_v_sampling) = (2, 2)
        }
        if let density = dotsPerInch, let x = Self.density(density.x), let y = Self.density(density.y) {
            (settings.density_unit, settings.x_density, settings.y_density) = (1, x, y)
        }
        guard pxp_jpeg_encoder_start(handle, &settings) == PXP_JPEG_OK else { throw failure() }
    }

    deinit { pxp_jpeg_encoder_destroy(handle) }

    /// Writes one marker segment; `marker` is the second marker byte (0xE1 for APP1).
    func writeMarker(_ marker: Int, payload: [UInt8]) throws(ImageEncodingError) {
        guard payload.count <= 65533 else {
            throw .invalidOption("a JPEG marker holds at most 65533 bytes, not \(payload.count)")
        }
        guard pxp_jpeg_encoder_write_marker(handle, Int32(marker), payload, payload.count) == PXP_JPEG_OK else {
            throw failure()
        }
    }

    /// Writes an ICC profile, split over as many APP2 markers as it needs.
    func writeICCProfile(_ profile: [UInt8]) throws(ImageEncodingError) {
        guard !profile.isEmpty else { return }
        guard pxp_jpeg_encoder_write_icc_profile(handle, profile, profile.count) == PXP_JPEG_OK else {
            throw failure()
        }
    }

    /// Compresses `count` rows starting at `rows`, `stride` bytes apart.
    func writeRows(_ rows: UnsafeRawBufferPointer, stride: Int, count: Int) throws(ImageEncodingError) {
        precondition(rows.count >= stride * count, "row buffer too small")
        guard let base = rows.baseAddress else { return }
        let status = pxp_jpeg_encoder_write_rows(
            handle, base.assumingMemoryBound(to: UInt8.self), stride, UInt32(count))
        guard status == PXP_JPEG_OK else { throw failure() }
    }

    /// Ends the file and returns its bytes.
    func finish() throws(ImageEncodingError) -> Data {
        var bytes: UnsafePointer<UInt8>?
        var length = 0
        guard pxp_jpeg_encoder_finish(handle, &bytes, &length) == PXP_JPEG_OK, let bytes else { throw failure() }
        return Data(bytes: bytes, count: length)
    }

    /// A JFIF density value, when it fits the 16-bit field.
    private static func density(_ value: Double) -> Int32? {
        guard value.isFinite, value >= 1, value <= 65535 else { return nil }
        return Int32(value.rounded())
    }

    /// The typed error for the step that just failed.
    private func failure() -> ImageEncodingError {
        .libraryFailure(format: .jpeg, reason: String(cString: pxp_jpeg_encoder_error_message(handle)))
    }
}
