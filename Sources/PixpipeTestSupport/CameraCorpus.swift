import Foundation

/// Camera-format files of the shared corpora (`$PIXPIPE_CORPORA/heif`, `jxl`, `tiff`) with the reference
/// row of each folder's `references.tsv`, for tests that fetch them over a socket.
///
/// ```swift
/// for sample in CameraCorpus.orientedSamples {
///     server.route("/\(sample.file)", .respond(body: try sample.bytes()))
/// }
/// ```
public enum CameraCorpus {
    /// One file and the reference decode it must match once its orientation is applied.
    public struct Sample: Sendable, CustomStringConvertible {
        /// The corpus folder, also the format's short name: `heif`, `jxl` or `tiff`.
        public let folder: String
        /// The file name inside `folder`.
        public let file: String
        /// The `decoder` column of the reference row that shows the picture upright.
        public let referenceDecoder: String
        /// Whether every machine decodes the file to the reference's exact samples. libjxl's lossy decode
        /// rounds differently without the AVX-512 code the references were made with, so a lossy JPEG XL
        /// is held to the reference's size and to a direct decode of the same bytes only.
        public var hasPortableSamples = true

        /// The file's bytes.
        public func bytes() throws -> [UInt8] {
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: CameraCorpus.path(folder, file))))
        }

        /// The upright reference: size, channels, bit depth and the samples' SHA-256.
        public func reference() throws -> Reference {
            let rows = try CameraCorpus.references(in: folder)
            guard let row = rows.first(where: { $0.file == file && $0.decoder == referenceDecoder }) else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: "\(folder)/references.tsv"])
            }
            return row
        }

        /// `folder/file`, as test results name the argument.
        public var description: String { "\(folder)/\(file)" }
    }

    /// One row of a camera folder's `references.tsv`.
    public struct Reference: Sendable, Equatable {
        /// The file the row is about.
        public let file: String
        /// The tool that made the reference (`heif-convert`, `libjxl-uint8`, `tiffcp+orientation`...).
        public let decoder: String
        /// The decoded width, orientation applied.
        public let width: Int
        /// The decoded height, orientation applied.
        public let height: Int
        /// 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA.
        public let channels: Int
        /// 8 or 16.
        public let bitDepth: Int
        /// Lowercase hex SHA-256 of the samples, row-major from the top-left, channels interleaved.
        public let sha256: String
    }

    /// The corpora folder named by `PIXPIPE_CORPORA`, or `nil` when the variable is unset or empty.
    public static var directory: String? {
        guard let value = ProcessInfo.processInfo.environment["PIXPIPE_CORPORA"], !value.isEmpty else { return nil }
        return value
    }

    /// Whether corpus tests should run (the variable is set).
    public static var isAvailable: Bool { directory != nil }

    /// A path inside the corpora folder.
    public static func path(_ folder: String, _ file: String) -> String {
        URL(fileURLWithPath: directory ?? "/nonexistent-corpora", isDirectory: true)
            .appendingPathComponent(folder).appendingPathComponent(file).path
    }

    /// One small photo per camera format stored turned and tagged to be shown upright (EXIF orientation 6
    /// or HEIF `irot` 270), so that a decode that skips or doubles the orientation fails, and a lossless
    /// JPEG XL whose samples every machine decodes exactly.
    public static let orientedSamples: [Sample] = [
        // libheif applies irot/imir itself; the reference is heif-convert's upright decode.
        Sample(folder: "heif", file: "gen-orientation6.heic", referenceDecoder: "heif-convert"),
        // The codestream orientation 6 of a recompressed JPEG; the reference is libjxl's upright decode.
        Sample(
            folder: "jxl", file: "gen-jpeg-orientation6.jxl", referenceDecoder: "libjxl-uint8",
            hasPortableSamples: false),
        // A lossless JPEG XL, whose samples are the same on every machine.
        Sample(folder: "jxl", file: "gen-lossless.jxl", referenceDecoder: "libjxl-uint8"),
        // The stored samples turned as the Orientation tag says: what a viewer shows.
        Sample(folder: "tiff", file: "gen-rgb8-orientation6-lzw.tif", referenceDecoder: "tiffcp+orientation"),
    ]

    /// A damaged file per camera format, which the reference decoder refuses: cut short by the corpus.
    public static let truncatedSamples: [Sample] = [
        Sample(folder: "heif", file: "gen-truncated.heic", referenceDecoder: "heif-convert"),
        Sample(folder: "jxl", file: "gen-truncated.jxl", referenceDecoder: "libjxl-uint8"),
        // The IFD comes first, so the header reads and the strips run out.
        Sample(folder: "tiff", file: "gen-truncated-strips.tif", referenceDecoder: "tiff2rgba"),
    ]

    /// The rows of `folder/references.tsv`, the columns found by name in its header.
    public static func references(in folder: String) throws -> [Reference] {
        let text = try String(contentsOfFile: path(folder, "references.tsv"), encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        guard let header = lines.first?.map(String.init) else { return [] }
        return lines.dropFirst().map { fields in
            func field(_ name: String) -> String {
                guard let index = header.firstIndex(of: name), index < fields.count else { return "" }
                return String(fields[index])
            }
            return Reference(
                file: field("file"), decoder: field("decoder"), width: Int(field("width")) ?? 0,
                height: Int(field("height")) ?? 0, channels: Int(field("channels")) ?? 0,
                bitDepth: Int(field("bitdepth")) ?? 8,
                sha256: field("width") == "error" ? "error" : field("sha256_of_samples"))
        }
    }
}
