import Pixpipe

/// The one rule for the format of a thumbnail when none is asked for, shared by `thumbnail` and
/// `fetch --thumbnail` so the same image gets the same kind of file from both.
enum ThumbnailFormatRule {
    /// PNG for a source whose header declares alpha (JPEG would flatten it), else JPEG.
    static func format(hasAlpha: Bool) -> ImageFormat {
        hasAlpha ? .png : .jpeg
    }
}
