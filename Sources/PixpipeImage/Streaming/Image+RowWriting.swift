extension Image {
    /// Writes the image to `path` with `encoding` atomically (as `AtomicFileWriter.write(to:contents:)`)
    /// through the codec's row writer, so the encoded file is never built in memory beside the pixels:
    /// `false`, with nothing written, when the codec has no row writer for these options (the caller then
    /// encodes to bytes). The bytes are those ``encoded(as:)`` gives.
    package func writeRows(to path: String, as encoding: ImageEncoding, flushes: Bool = true) throws -> Bool {
        guard let codec = ImageCodecs.codec(for: encoding.format), codec.canEncode,
            let format = codec.rowFormat(for: pixelFormat, options: encoding.options), width > 0, height > 0
        else { return false }
        let header = RowStreamHeader(width: width, height: height, pixelFormat: pixelFormat, metadata: metadata)
        var target = header
        target.pixelFormat = format
        try AtomicFileWriter.write(to: path, flushes: flushes) { descriptor in
            let writer = try codec.rowWriter(target, options: encoding.options, descriptor: descriptor)
            try withUnsafeBytes { pixels in
                // Not empty (checked above), so the base address exists.
                let base = pixels.baseAddress!
                try StreamedConversion.pump(header, format: format, into: writer) { base + $0 * bytesPerRow }
            }
            try writer.finish()
        }
        return true
    }
}
