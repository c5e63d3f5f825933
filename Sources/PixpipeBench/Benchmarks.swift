import Foundation
import PixpipeImage

/// The in-process operations `scripts/bench` compares with its peers; each returns a report.
///
/// Inputs are read and (for encode and resize) decoded before timing starts, so only the
/// library operation itself is measured, without process start-up or file I/O.
enum Benchmarks {
    /// Decodes every file from memory, once per timed run.
    static func decode(_ arguments: BenchArguments) throws(BenchError) -> BenchReport {
        try timeEachFile(arguments, operation: "decode") { data throws(ImageDecodingError) in
            try Image(data: data).pixelCount
        }
    }

    /// Verifies every file from memory (``Image/verify(data:options:)``, what `pixpipe fetch` does to each
    /// body), once per timed run. Megapixels count each image's full size.
    static func verify(_ arguments: BenchArguments) throws(BenchError) -> BenchReport {
        try timeEachFile(arguments, operation: "verify") { data throws(ImageDecodingError) in
            let info = try Image.verify(data: data)
            return info.width * info.height
        }
    }

    /// Reads the files, then times `work` (which returns the pixels it handled) over all of them per run.
    private static func timeEachFile(
        _ arguments: BenchArguments, operation: String, _ work: (Data) throws(ImageDecodingError) -> Int
    ) throws(BenchError) -> BenchReport {
        let inputs = try arguments.files.map { path throws(BenchError) in (path, try readFile(path)) }
        var megapixels = 0.0
        let stopwatch = Stopwatch(warmups: arguments.warmups, repetitions: arguments.repetitions)
        let seconds = try stopwatch.measure { () throws(BenchError) in
            var pixels = 0
            for (path, data) in inputs {
                do throws(ImageDecodingError) {
                    pixels += try work(data)
                } catch {
                    throw .decoding(path: path, error)
                }
            }
            megapixels = Double(pixels) / 1e6
        }
        return BenchReport(operation: operation, files: inputs.count, megapixels: megapixels, seconds: seconds)
    }

    /// Decodes every frame of every file through ``AnimationReader``, once per timed run: the full-canvas
    /// composited frames a player shows. Megapixels count every frame's canvas.
    static func decodeFrames(_ arguments: BenchArguments) throws(BenchError) -> BenchReport {
        let inputs = try arguments.files.map { path throws(BenchError) in (path, try readFile(path)) }
        var megapixels = 0.0
        var frames = 0
        let stopwatch = Stopwatch(warmups: arguments.warmups, repetitions: arguments.repetitions)
        let seconds = try stopwatch.measure { () throws(BenchError) in
            var pixels = 0
            frames = 0
            for (path, data) in inputs {
                do throws(ImageDecodingError) {
                    let reader = try AnimationReader(data: data)
                    while let frame = try reader.nextFrame() {
                        pixels += frame.image.pixelCount
                        frames += 1
                    }
                } catch {
                    throw .decoding(path: path, error)
                }
            }
            megapixels = Double(pixels) / 1e6
        }
        return BenchReport(
            operation: "decode-frames", files: inputs.count, megapixels: megapixels, seconds: seconds, frames: frames)
    }

    /// Encodes the decoded first file with `encoding`, once per timed run.
    static func encode(_ arguments: BenchArguments, as encoding: ImageEncoding, name: String) throws(BenchError)
        -> BenchReport
    {
        let image = try decodeFile(arguments.files[0])
        var outputBytes = 0
        let stopwatch = Stopwatch(warmups: arguments.warmups, repetitions: arguments.repetitions)
        let seconds = try stopwatch.measure { () throws(BenchError) in
            do throws(ImageEncodingError) {
                outputBytes = try image.encoded(as: encoding).count
            } catch {
                throw .encoding(error)
            }
        }
        return BenchReport(
            operation: name, files: 1, megapixels: Double(image.pixelCount) / 1e6, seconds: seconds,
            outputBytes: outputBytes)
    }

    /// Resizes the decoded first file with Lanczos-3 by `--scale`, once per timed run.
    static func resize(_ arguments: BenchArguments) throws(BenchError) -> BenchReport {
        let image = try decodeFile(arguments.files[0])
        let width = max(1, Int((Double(image.width) * arguments.scale).rounded()))
        let height = max(1, Int((Double(image.height) * arguments.scale).rounded()))
        let stopwatch = Stopwatch(warmups: arguments.warmups, repetitions: arguments.repetitions)
        let seconds = try stopwatch.measure { () throws(BenchError) in
            do throws(ImageProcessingError) {
                _ = try image.resized(width: width, height: height, filter: .lanczos3)
            } catch {
                throw .processing(error)
            }
        }
        return BenchReport(
            operation: "resize", files: 1, megapixels: Double(image.pixelCount) / 1e6, seconds: seconds)
    }

    /// The whole file as bytes.
    private static func readFile(_ path: String) throws(BenchError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    /// The file decoded, for operations that start from pixels.
    private static func decodeFile(_ path: String) throws(BenchError) -> Image {
        let data = try readFile(path)
        do {
            return try Image(data: data)
        } catch {
            throw .decoding(path: path, error)
        }
    }
}
