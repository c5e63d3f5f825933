import Foundation

extension Image {
    /// Decodes image bytes of any format in the codec table; the format is sniffed from the bytes.
    public init(data: Data, options: DecodeOptions = .init()) throws(ImageDecodingError) {
        self = try data.withTypedBytes { (bytes) throws(ImageDecodingError) in try Image(bytes: bytes, options: options)
        }
    }

    /// Decodes image bytes from a buffer the caller owns; the format is sniffed from the bytes.
    public init(bytes: UnsafeRawBufferPointer, options: DecodeOptions = .init()) throws(ImageDecodingError) {
        try options.checkBytes(bytes.count)
        self = try ImageCodecs.decoder(for: bytes).decode(bytes, options: options)
    }

    /// Decodes the image file at `path`; the format is sniffed from its bytes, not its name.
    public init(contentsOfFile path: String, options: DecodeOptions = .init()) throws(ImageDecodingError) {
        let data = try Image.readFile(path, byteLimit: options.byteLimit)
        try self.init(data: data, options: options)
    }

    /// Decodes the image file at a `file:` URL; the format is sniffed from its bytes, not its name.
    ///
    /// ```swift
    /// let image = try Image(contentsOf: URL(fileURLWithPath: "photo.jpg"))
    /// ```
    ///
    /// The same as ``init(contentsOfFile:options:)`` with the URL's path. Only local files are read here:
    /// any other URL throws ``ImageDecodingError/unreadable(path:reason:)`` without a request (load `http`
    /// and `https` images through `ImagePipeline` or `Request<Image>` of the `Pixpipe` module).
    public init(contentsOf url: URL, options: DecodeOptions = .init()) throws(ImageDecodingError) {
        guard url.isFileURL else {
            throw .unreadable(
                path: url.absoluteString,
                reason: "not a file URL (Image(contentsOf:) reads local files; load web images through ImagePipeline)")
        }
        try self.init(contentsOfFile: url.path, options: options)
    }

    /// Reads the header of image bytes without decoding pixels.
    public static func info(data: Data, options: DecodeOptions = .init()) throws(ImageDecodingError) -> ImageInfo {
        try data.withTypedBytes { (bytes) throws(ImageDecodingError) in
            try options.checkBytes(bytes.count)
            return try ImageCodecs.decoder(for: bytes).info(bytes)
        }
    }

    /// Reads the header of the file at `path` without decoding pixels.
    ///
    /// The file is mapped, not read: only the pages the format's header parse touches come from disk (the
    /// first few KB of a JPEG, PNG or WebP; every frame header of a GIF), so a huge file or one with a huge
    /// tail costs no more than its header. The byte limit still applies to the file's size.
    public static func info(contentsOfFile path: String, options: DecodeOptions = .init()) throws(ImageDecodingError)
        -> ImageInfo
    {
        let file = try MappedFile(path: path)
        try options.checkBytes(file.byteCount)
        return try file.withBytes { (bytes) throws(ImageDecodingError) in
            try ImageCodecs.decoder(for: bytes).info(bytes)
        }
    }

    /// Proves `data` a whole, undamaged image and returns its header, doing the least work that still reads
    /// every byte of the image data (a JPEG is decoded at 1/8 size, which entropy-decodes every coefficient
    /// but skips most of the inverse DCT). The pixel limit applies to the image's full size; in strict mode
    /// truncation and damage throw exactly as a full decode's would.
    public static func verify(data: Data, options: DecodeOptions = .init()) throws(ImageDecodingError) -> ImageInfo {
        try data.withTypedBytes { (bytes) throws(ImageDecodingError) in
            try options.checkBytes(bytes.count)
            return try ImageCodecs.decoder(for: bytes).verify(bytes, options: options)
        }
    }

    /// Reads a whole file, refusing it before reading when it is over `byteLimit`.
    package static func readFile(_ path: String, byteLimit: Int?) throws(ImageDecodingError) -> Data {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw .unreadable(path: path, reason: ImageDecodingError.isAFolder)
        }
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            let size = try handle.seekToEnd()
            if let limit = byteLimit, size > UInt64(limit) {
                throw ImageDecodingError.inputTooLarge(bytes: Int(size), limit: limit)
            }
            try handle.seek(toOffset: 0)
            return try handle.readToEnd() ?? Data()
        } catch let error as ImageDecodingError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
    }
}
