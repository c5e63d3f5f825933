import Pixpipe

/// One input of a thumbnail batch and where its thumbnail goes, decided before any work starts.
struct ThumbnailJob: Sendable, Hashable {
    /// The input path as found (given on the command line or under a given directory).
    let input: String
    /// The output path, or `nil` when planning already failed.
    let output: String?
    /// The format written.
    let format: ImageFormat
    /// Whether every frame is kept (`--animated` and an input of several frames), else only the first.
    var keepsFrames = false
    /// Why the input cannot be thumbnailed, found while planning (not an image, unreadable...).
    let planningError: ThumbnailFailure?
}
