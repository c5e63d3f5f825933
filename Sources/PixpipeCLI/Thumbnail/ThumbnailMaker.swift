import Foundation
import Pixpipe

/// The work of one `pixpipe thumbnail` job: the thumbnail of the input (its first frame, the frame
/// `--frame` names, or every frame with `--animated`), encoded.
struct ThumbnailMaker: Sendable {
    /// The command's settings.
    let settings: ThumbnailSettings

    /// The encoded thumbnail of `job`'s input; a strict failure a lenient decode gets past says so.
    func make(_ job: BatchJob) throws -> BatchProduct {
        do {
            return try makeStrictly(job)
        } catch {
            guard settings.options.strictness == .strict, LenientHint.applies(to: error) else { throw error }
            // The hint is given only when a lenient thumbnail really succeeds: a second decode, on failures only.
            var lenient = settings.options
            lenient.strictness = .lenient
            let data = job.inputData ?? (try? job.data(byteLimit: lenient.byteLimit))
            guard let data, (try? Thumbnailer(lenient).thumbnail(data: data)) != nil else { throw error }
            let failure = BatchFailure(error)
            throw BatchFailure(message: failure.message + LenientHint.suffix, kind: failure.kind)
        }
    }

    /// The encoded thumbnail of `job`'s input, decoded as the options say.
    private func makeStrictly(_ job: BatchJob) throws -> BatchProduct {
        let encoder = ThumbnailEncoder(format: job.format, quality: settings.quality, strips: settings.strips)
        if job.keepsFrames {
            let thumbnailer = AnimationThumbnailer(
                options: settings.options, encoding: try encoder.encoding, frameLimit: settings.frameLimit)
            let animation = try thumbnailer.thumbnail(
                data: job.data(byteLimit: settings.options.byteLimit), finishing: settings.finished)
            return BatchProduct(
                data: animation.data, width: animation.width, height: animation.height, warnings: animation.warnings)
        }
        var thumbnail: Image
        if let picked = try pickedFrameThumbnail(job) {
            thumbnail = picked
        } else if let data = job.inputData {
            thumbnail = try Thumbnailer(settings.options).thumbnail(data: data)
        } else {
            thumbnail = try Thumbnailer(settings.options).thumbnail(contentsOfFile: job.input)
        }
        thumbnail = settings.finished(thumbnail)
        let data = try encoder.encode(thumbnail)
        return BatchProduct(
            data: data, width: thumbnail.width, height: thumbnail.height, warnings: thumbnail.metadata.warnings)
    }

    /// With `--frame N`, the thumbnail of frame or page N of the input (decoded whole under the thumbnail's
    /// limits, then resized); `nil` without the option.
    private func pickedFrameThumbnail(_ job: BatchJob) throws -> Image? {
        guard let index = settings.frame else { return nil }
        let options = settings.options
        let decodeOptions = DecodeOptions(
            pixelLimit: options.pixelLimit, byteLimit: options.byteLimit, strictness: options.strictness,
            frameLimit: settings.frameLimit)
        let data = try job.data(byteLimit: options.byteLimit)
        let frame = try AnimationReader(data: data, options: decodeOptions).frame(at: index)
        return try Thumbnailer(options).thumbnail(of: frame.image)
    }
}
