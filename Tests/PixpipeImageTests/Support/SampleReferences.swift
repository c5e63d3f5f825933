import Foundation
import PixpipeImage
import Testing

/// One row of a corpus's `references.tsv`: a decode's size, layout and the SHA-256 of its samples.
struct SampleReference: Sendable, CustomTestStringConvertible {
    /// The file name.
    let file: String
    /// The frame, for animated references; 0 otherwise.
    let frame: Int
    /// The decoded width.
    let width: Int
    /// The decoded height.
    let height: Int
    /// Channels of the reference samples.
    let channels: Int
    /// 8 or 16.
    let bitDepth: Int
    /// Lowercase hex SHA-256 of the samples (16-bit big-endian), or `error`.
    let digest: String
    /// Every column of the row by its header name, for a corpus's own columns (`decoder`, `index`, `note`).
    var columns: [String: String] = [:]
    /// The tool that made the reference (a `decoder` column), when the corpus names one per row.
    var decoder: String? = nil

    var testDescription: String {
        let name = frame == 0 ? file : "\(file) frame \(frame)"
        return decoder.map { "\(name) (\($0))" } ?? name
    }

    /// The rows of `folder/references.tsv`, the columns found by name; empty without corpora.
    static func load(_ folder: String) -> [SampleReference] {
        guard Corpora.isAvailable,
            let text = try? String(contentsOfFile: Corpora.path(folder, "references.tsv"), encoding: .utf8)
        else { return [] }
        let lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        guard let header = lines.first?.map(String.init) else { return [] }
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        return lines.dropFirst().compactMap { fields in
            func field(_ name: String) -> String? {
                column(name).flatMap { $0 < fields.count ? String(fields[$0]) : nil }
            }
            guard let file = field("file"), var digest = field("sha256_of_samples") else { return nil }
            // A refused file may say so in its width column, the rest left blank.
            if field("width") == "error" { digest = "error" }
            return SampleReference(
                // `frame` for animations, `index` for a file's pages.
                file: file, frame: (field("frame") ?? field("index")).flatMap { Int($0) } ?? 0,
                width: field("width").flatMap { Int($0) } ?? 0,
                height: field("height").flatMap { Int($0) } ?? 0, channels: field("channels").flatMap { Int($0) } ?? 0,
                bitDepth: field("bitdepth").flatMap { Int($0) } ?? 8, digest: digest,
                columns: Dictionary(
                    zip(header, fields.map(String.init)).map { ($0, $1) }, uniquingKeysWith: { first, _ in first }),
                decoder: field("decoder").flatMap { $0.isEmpty ? nil : $0 })
        }
    }
}

/// The SHA-256 of an image's samples as the corpora's references are made: row-major, channels interleaved,
/// widened to `channels` (gray to RGB, alpha 255 added), 8-bit samples as bytes, 16-bit big-endian.
func sampleDigest(_ image: Image, channels: Int, bitDepth: Int) -> String {
    let layout = PixelLayout(channels: channels) ?? .rgba
    let target = PixelFormat(layout: layout, bitsPerSample: bitDepth)
    if bitDepth == 8, image.pixelFormat == .rgb8, target == .rgba8 {
        // The common case, done directly: `converted(to:)` is slow in debug builds.
        return image.withUnsafeBytes { rgb in
            let pixels = [UInt8](unsafeUninitializedCapacity: image.pixelCount * 4) { rgba, count in
                for pixel in 0..<image.pixelCount {
                    rgba[pixel * 4] = rgb[pixel * 3]
                    rgba[pixel * 4 + 1] = rgb[pixel * 3 + 1]
                    rgba[pixel * 4 + 2] = rgb[pixel * 3 + 2]
                    rgba[pixel * 4 + 3] = 255
                }
                count = image.pixelCount * 4
            }
            return SampleDigest.sha256(pixels)
        }
    }
    let converted = image.pixelFormat == target ? image : image.converted(to: target)
    if bitDepth == 8 { return SampleDigest.sha256(converted.pixels) }
    let bigEndian = converted.samples16.withUnsafeBufferPointer { samples in
        [UInt8](unsafeUninitializedCapacity: samples.count * 2) { bytes, count in
            for index in 0..<samples.count {
                bytes[index * 2] = UInt8(samples[index] >> 8)
                bytes[index * 2 + 1] = UInt8(samples[index] & 0xFF)
            }
            count = samples.count * 2
        }
    }
    return SampleDigest.sha256(bigEndian)
}
