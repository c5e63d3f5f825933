import Foundation

extension Image {
    /// Decodes PNG or JPEG bytes; the format is sniffed from the bytes.
    public init(data: Data, options: DecodeOptions = .init()) throws(ImageDecodingError) {
        let result: Result<Image, ImageDecodingError> = data.withUnsafeBytes { bytes in
            do throws(ImageDecodingError) { return .success(try Image(bytes: bytes, options: options)) } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    /// Decodes PNG or JPEG bytes from a buffer the caller owns; the format is sniffed from the bytes.
    public init(bytes: UnsafeRawBufferPointer, options: DecodeOptions = .init()) throws(ImageDecodingError) {
        if let limit = options.byteLimit, bytes.count > limit {
            throw .inputTooLarge(bytes: bytes.count, limit: limit)
        }
        switch ImageFormat.sniff(bytes) {
        case .png: self = try PNGDecoder.decode(bytes, options: options)
        case .jpeg: self = try JPEGDecoder.decode(bytes, options: options)
        case nil: throw .unsupportedFormat
        }
    }

    /// Decodes the PNG or JPEG file at `path`; the format is sniffed from its bytes, not its name.
    public init(contentsOfFile path: String, options: DecodeOptions = .init()) throws(ImageDecodingError) {
        let data = try Image.readFile(path, byteLimit: options.byteLimit)
        try self.init(data: data, options: options)
    }

    /// Reads the header of PNG or JPEG bytes without decoding pixels.
    public static func info(data: Data, options: DecodeOptions = .init()) throws(ImageDecodingError) -> ImageInfo {
        let result: Result<ImageInfo, ImageDecodingError> = data.withUnsafeBytes { bytes in
            do throws(ImageDecodingError) {
                if let limit = options.byteLimit, bytes.count > limit {
                    throw .inputTooLarge(bytes: bytes.count, limit: limit)
                }
                switch ImageFormat.sniff(bytes) {
                case .png: return .success(try PNGDecoder.info(bytes))
                case .jpeg: return .success(try JPEGDecoder.info(bytes))
                case nil: throw .unsupportedFormat
                }
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads the header of the file at `path` without decoding pixels.
    public static func info(contentsOfFile path: String, options: DecodeOptions = .init()) throws(ImageDecodingError)
        -> ImageInfo
    {
        try info(data: readFile(path, byteLimit: options.byteLimit), options: options)
    }

    /// Reads a whole file, refusing it before reading when it is over `byteLimit`.
    static func readFile(_ path: String, byteLimit: Int?) throws(ImageDecodingError) -> Data {
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
