import Foundation
import Pixpipe

/// Where a command reads an image from: a file, or standard input when the argument is `-`.
enum InputSource: Sendable, Hashable {
    /// Standard input, read to its end.
    case standardInput
    /// A file path.
    case file(String)

    /// The source named by a command-line argument.
    init(argument: String) {
        self = argument == "-" ? .standardInput : .file(argument)
    }

    /// How messages and JSON records name the source: the path, or `-`.
    var displayName: String {
        switch self {
        case .standardInput: "-"
        case .file(let path): path
        }
    }

    /// The whole input's bytes, refused as soon as they are over `byteLimit`.
    func data(byteLimit: Int?) throws(ImageDecodingError) -> Data {
        switch self {
        case .file(let path): try Image.readFile(path, byteLimit: byteLimit)
        case .standardInput: try Self.readStandardInput(byteLimit: byteLimit)
        }
    }

    /// Reads the header only. A file is mapped, not read, so the byte limit applies to standard input only.
    func info(options: DecodeOptions) throws(ImageDecodingError) -> ImageInfo {
        switch self {
        case .file(let path):
            var mapped = options
            mapped.byteLimit = nil
            return try Image.info(contentsOfFile: path, options: mapped)
        case .standardInput:
            return try Image.info(data: Self.readStandardInput(byteLimit: options.byteLimit), options: options)
        }
    }

    /// Reads standard input to its end, in chunks, stopping as soon as it is over `byteLimit`.
    ///
    /// A pipe has no size to check up front, so the limit is enforced while reading: memory stays bounded
    /// even when someone pipes an endless stream in.
    static func readStandardInput(byteLimit: Int?) throws(ImageDecodingError) -> Data {
        let chunkSize = 1 << 20
        var data = Data()
        do {
            while let chunk = try FileHandle.standardInput.read(upToCount: chunkSize), !chunk.isEmpty {
                data.append(chunk)
                if let byteLimit, data.count > byteLimit {
                    throw ImageDecodingError.inputTooLarge(bytes: data.count, limit: byteLimit)
                }
            }
        } catch let error as ImageDecodingError {
            throw error
        } catch {
            throw .unreadable(path: "standard input", reason: (error as NSError).localizedDescription)
        }
        return data
    }
}
