import Foundation

/// Where the JPEG conformance tests find the shared corpora, and a reader for their PPM references.
enum JPEGCorpus {
    /// The corpora folder from `PIXPIPE_CORPORA`, or nil when the variable is unset or empty.
    static var directory: String? {
        guard let value = ProcessInfo.processInfo.environment["PIXPIPE_CORPORA"], !value.isEmpty else { return nil }
        return value
    }

    /// Whether corpus tests run: the variable is set (a missing folder then fails the tests).
    static var isAvailable: Bool { directory != nil }

    /// The path of `name` inside `folder` of the corpora.
    static func path(_ folder: String, _ name: String) -> String {
        "\(directory ?? ".")/\(folder)/\(name)"
    }

    /// The bytes of `name` inside `folder`; throws when the file is missing.
    static func data(_ folder: String, _ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path(folder, name)))
    }

    /// A decoded binary PPM (P6, maxval 255): size and RGB samples.
    struct PPM {
        /// Width in pixels.
        var width: Int
        /// Height in pixels.
        var height: Int
        /// RGB samples, row-major.
        var samples: [UInt8]
    }

    /// Why a PPM could not be read.
    struct PPMError: Error, CustomStringConvertible {
        /// What was wrong.
        var description: String
    }

    /// Parses a binary PPM (P6) with maxval 255.
    static func readPPM(_ data: Data) throws -> PPM {
        let bytes = [UInt8](data)
        var position = 0
        func token() throws -> String {
            while position < bytes.count {
                if bytes[position] == UInt8(ascii: "#") {
                    while position < bytes.count, bytes[position] != 0x0A { position += 1 }
                } else if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) {
                    position += 1
                } else {
                    break
                }
            }
            let start = position
            while position < bytes.count, ![0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
            guard position > start else { throw PPMError(description: "PPM header ends early") }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }
        guard try token() == "P6" else { throw PPMError(description: "not a binary PPM") }
        guard let width = Int(try token()), let height = Int(try token()), try token() == "255" else {
            throw PPMError(description: "unsupported PPM header")
        }
        position += 1  // the single whitespace byte before the samples
        let count = width * height * 3
        guard bytes.count - position >= count else { throw PPMError(description: "PPM samples end early") }
        return PPM(width: width, height: height, samples: Array(bytes[position..<(position + count)]))
    }
}
