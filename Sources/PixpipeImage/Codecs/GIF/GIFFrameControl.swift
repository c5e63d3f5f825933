/// What a graphic control extension says about the frame that follows it.
struct GIFFrameControl {
    /// What happens to the frame's rectangle before the next frame is drawn.
    enum Disposal {
        /// Leave the frame in place (disposal 0, "unspecified", and 1, "do not dispose"; browsers also
        /// treat the undefined values 4 to 7 this way).
        case keep
        /// Clear the frame's rectangle to transparent (disposal 2: browsers clear rather than paint the
        /// background colour).
        case clear
        /// Restore the canvas as it was before the frame was drawn (disposal 3).
        case restorePrevious
    }

    /// The disposal method.
    var disposal = Disposal.keep
    /// The delay in hundredths of a second, as the file stores it.
    var delay = 0
    /// The palette index drawn as "leave the canvas unchanged", if any.
    var transparentIndex: Int?

    /// No extension: keep, no delay, no transparency.
    init() {}

    /// Reads the graphic control extension's one sub-block; a block shorter than four bytes is ignored.
    init(block: [UInt8]) {
        guard block.count >= 4 else { return }
        switch (block[0] >> 2) & 0x07 {
        case 2: disposal = .clear
        case 3: disposal = .restorePrevious
        default: disposal = .keep
        }
        delay = Int(block[1]) | Int(block[2]) << 8
        transparentIndex = block[0] & 0x01 != 0 ? Int(block[3]) : nil
    }

    /// The extension label of a graphic control extension.
    static let label = 0xF9
}
