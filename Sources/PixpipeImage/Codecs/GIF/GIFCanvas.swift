/// The full canvas frames are composited on, as browsers show them: RGBA, transparent where nothing is drawn.
///
/// A frame's pixels replace the canvas's except where the frame's transparent index leaves it unchanged;
/// a frame lying partly outside the canvas is clipped. Disposal is applied when the next frame begins: keep,
/// clear the frame's rectangle to transparent, or restore what the canvas held before the frame.
struct GIFCanvas {
    /// Canvas width.
    let width: Int
    /// Canvas height.
    let height: Int
    /// RGBA samples, row-major from the top-left.
    private(set) var pixels: [UInt8]

    /// The last frame's disposal, its clipped rectangle and, for restore-previous, the canvas before it.
    private var pendingDisposal: (disposal: GIFFrameControl.Disposal, rect: ClippedRect, saved: [UInt8]?)?

    /// A transparent canvas of `background`'s colour with alpha 0; the caller has checked `width * height`
    /// against the pixel limit.
    init(width: Int, height: Int, background: UInt32) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        let transparent = background & Self.colorMask
        pixels.withUnsafeMutableBytes { canvas in
            for offset in stride(from: 0, to: canvas.count, by: 4) {
                canvas.storeBytes(of: transparent, toByteOffset: offset, as: UInt32.self)
            }
        }
    }

    /// The R, G, B bytes of a packed pixel (alpha is the last byte in memory; little-endian, the high one).
    private static let colorMask = UInt32(littleEndian: 0x00FF_FFFF)

    /// A frame rectangle clipped to the canvas (possibly empty).
    struct ClippedRect {
        /// First canvas column drawn.
        var left: Int
        /// First canvas row drawn.
        var top: Int
        /// One past the last canvas column drawn.
        var right: Int
        /// One past the last canvas row drawn.
        var bottom: Int
    }

    /// The part of `descriptor`'s rectangle that lies on the canvas.
    func clip(_ descriptor: GIFHandle.Descriptor) -> ClippedRect {
        let left = min(descriptor.left, width)
        let top = min(descriptor.top, height)
        return ClippedRect(
            left: left, top: top, right: max(left, min(descriptor.left + descriptor.width, width)),
            bottom: max(top, min(descriptor.top + descriptor.height, height)))
    }

    /// Applies the previous frame's disposal, then saves the canvas if this frame restores it afterwards.
    mutating func begin(_ rect: ClippedRect, control: GIFFrameControl) {
        if let pending = pendingDisposal {
            switch pending.disposal {
            case .keep: break
            case .clear: clear(pending.rect)
            case .restorePrevious: if let saved = pending.saved { pixels = saved }
            }
        }
        pendingDisposal = (control.disposal, rect, control.disposal == .restorePrevious ? pixels : nil)
    }

    /// Draws one decoded row of palette indices at canvas row `y`, from canvas column `rect.left` on.
    mutating func draw(
        row: UnsafeBufferPointer<UInt8>, y: Int, rect: ClippedRect, palette: GIFPalette, transparentIndex: Int?
    ) {
        let count = rect.right - rect.left
        guard count > 0, y >= rect.top, y < rect.bottom else { return }
        let transparent = transparentIndex ?? -1
        let mask = Self.colorMask
        palette.entries.withUnsafeBufferPointer { colors in
            pixels.withUnsafeMutableBytes { canvas in
                let start = (y * width + rect.left) * 4
                for x in 0..<count {
                    let index = Int(row[x])
                    let offset = start + x * 4
                    if index == transparent {
                        // Invisible either way; where nothing visible is below, the reference renderings hold
                        // the transparent entry's colour.
                        if canvas[offset + 3] == 0 {
                            canvas.storeBytes(of: colors[index] & mask, toByteOffset: offset, as: UInt32.self)
                        }
                        continue
                    }
                    canvas.storeBytes(of: colors[index], toByteOffset: offset, as: UInt32.self)
                }
            }
        }
    }

    /// Makes `rect` transparent: alpha 0, the colour channels kept (as the reference renderings have them).
    private mutating func clear(_ rect: ClippedRect) {
        guard rect.right > rect.left else { return }
        pixels.withUnsafeMutableBytes { canvas in
            for y in rect.top..<rect.bottom {
                for x in rect.left..<rect.right { canvas[(y * width + x) * 4 + 3] = 0 }
            }
        }
    }
}
