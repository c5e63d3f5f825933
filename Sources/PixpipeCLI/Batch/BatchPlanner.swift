import Foundation
import Pixpipe

/// Turns the command line's inputs into jobs: directories expanded, formats sniffed, output names fixed.
///
/// Planning is sequential and in a stable order (arguments in order, directory contents sorted), so two
/// inputs that map to the same output name get the same suffixes on every run; across runs, an output name
/// stays with the source it was first given to (``OutputSourceRecords``), so a new source never takes
/// another's output for its own. A file under a given folder keeps its subfolders under the output
/// folder (`dcim/100APPLE/IMG_0001.JPG` gives `OUT/100APPLE/IMG_0001.jpg`).
struct BatchPlanner {
    /// The command's settings.
    let settings: any BatchSettings

    /// One input found: where it is, the subfolder its output goes to, and what it is.
    private struct Input {
        let path: String
        let subfolder: String
        let kind: InputKind
        var data: Data?
    }

    /// The jobs for `arguments`. A named file in no decodable format becomes a failed job; under
    /// directories, files that look like images but are not read become skipped jobs with the reason, and
    /// other files are left out. `-` reads standard input (once, up to the byte limit).
    func plan(_ arguments: [String]) -> [BatchJob] {
        var inputs: [Input] = []
        var failures: [Int: BatchFailure] = [:]
        let outputRoot = URL(fileURLWithPath: settings.outputDirectory).standardizedFileURL.path
        for argument in arguments {
            if argument == "-" {
                do {
                    let data = try InputSource.readStandardInput(byteLimit: settings.byteLimit)
                    if let probe = InputProbe(prefix: data) {
                        inputs.append(Input(path: "-", subfolder: "", kind: .image(probe), data: data))
                    } else {
                        inputs.append(
                            Input(
                                path: "-", subfolder: "",
                                kind: .notAnImage(
                                    BatchFailure(
                                        ImageDecodingError.unsupportedFormat(recognized: RecognizedContent(data))))))
                    }
                } catch {
                    failures[inputs.count] = BatchFailure(error)
                    inputs.append(Input(path: "-", subfolder: "", kind: .other))
                }
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                failures[inputs.count] = BatchFailure(message: "no such file or directory", kind: "unreadable-file")
                inputs.append(Input(path: argument, subfolder: "", kind: .other))
                continue
            }
            if isDirectory.boolValue {
                for (path, subfolder) in Self.files(under: argument, excluding: outputRoot) {
                    let kind = InputKind(path: path, countsFrames: settings.countsFrames)
                    if kind != .other { inputs.append(Input(path: path, subfolder: subfolder, kind: kind)) }
                }
            } else if let probe = InputProbe(path: argument, countsFrames: settings.countsFrames) {
                inputs.append(Input(path: argument, subfolder: "", kind: .image(probe)))
            } else {
                // Named on the command line: an error either way, with the reason when the kind is known.
                let notAnImage = BatchFailure(
                    ImageDecodingError.unsupportedFormat(recognized: RecognizedContent(fileAt: argument)))
                if case .unsupported(let reason) = InputKind(path: argument, countsFrames: false) {
                    failures[inputs.count] = BatchFailure(message: reason, kind: notAnImage.kind)
                } else {
                    failures[inputs.count] = notAnImage
                }
                inputs.append(Input(path: argument, subfolder: "", kind: .other))
            }
        }
        var taken: Set<String> = []
        // Opened with the first output name given out: a run where every input fails leaves no file behind.
        var records: OutputSourceRecords?
        var opened = false
        defer { records?.finish() }
        return inputs.enumerated().map { index, input in
            if let failure = failures[index] { return BatchJob(input: input.path, failure: failure) }
            let probe: InputProbe
            switch input.kind {
            case .image(let found): probe = found
            case .unsupported(let reason): return BatchJob(input: input.path, skipReason: reason)
            case .notAnImage(let failure): return BatchJob(input: input.path, failure: failure)
            case .other:
                return BatchJob(
                    input: input.path,
                    failure: BatchFailure(
                        ImageDecodingError.unsupportedFormat(recognized: RecognizedContent(fileAt: input.path))))
            }
            let format: ImageFormat
            switch settings.format(for: probe) {
            case .success(let found): format = found
            case .failure(let failure): return BatchJob(input: input.path, failure: failure)
            }
            var size: (width: Int, height: Int)?
            if settings.nameTemplate.needsSize {
                do {
                    let info =
                        try input.data.map { try Image.info(data: $0, options: DecodeOptions(pixelLimit: nil)) }
                        ?? Image.info(contentsOfFile: input.path, options: DecodeOptions(pixelLimit: nil))
                    size = try settings.outputSize(of: info)
                } catch {
                    return BatchJob(input: input.path, failure: BatchFailure(error))
                }
            }
            let isStandardInput = input.path == "-"
            let url = URL(fileURLWithPath: input.path)
            let base = isStandardInput ? "stdin" : url.deletingPathExtension().lastPathComponent
            let folder = isStandardInput ? "" : url.deletingLastPathComponent().lastPathComponent
            let name = settings.nameTemplate.render(
                name: base, directory: folder, width: size?.width, height: size?.height,
                fileExtension: format.fileExtension)
            let prefix = input.subfolder.isEmpty ? "" : input.subfolder + "/"
            // A name another source's output holds (this run's, or one recorded in the folder) is not taken.
            let source = isStandardInput ? "-" : url.standardizedFileURL.path
            if !opened {
                records = OutputSourceRecords(directory: settings.outputDirectory)
                opened = true
            }
            var unique = prefix + name
            var counter = 2
            while taken.contains(unique) || records.map({ !$0.allows(unique, for: source) }) ?? false {
                unique = prefix + OutputNameTemplate.suffixed(name, counter: counter)
                counter += 1
            }
            taken.insert(unique)
            records?.record(unique, for: source)
            let output = URL(fileURLWithPath: settings.outputDirectory).appendingPathComponent(unique).path
            var job = BatchJob(input: input.path, output: output, format: format)
            job.keepsFrames = settings.keepsFrames(of: probe)
            job.inputData = input.data
            job.recordName = unique
            job.source = source
            job.recipe = settings.recipe(format: format, keepsFrames: job.keepsFrames)
            job.previousRecipe = records?.recipe(of: unique)
            return job
        }
    }

    /// The regular files under `directory`, recursively, sorted, leaving out the output directory; each
    /// with its subfolder relative to `directory` (empty for the files directly in it).
    private static func files(under directory: String, excluding outputRoot: String) -> [(String, String)] {
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        guard
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey])
        else { return [] }
        var files: [(String, String)] = []
        let rootComponents = root.pathComponents.count
        for case let url as URL in enumerator {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
            if values?.isDirectory == true, url.standardizedFileURL.path == outputRoot {
                enumerator.skipDescendants()
            } else if values?.isRegularFile == true {
                let components = url.standardizedFileURL.pathComponents
                let subfolder = components.dropFirst(rootComponents).dropLast().joined(separator: "/")
                let path = URL(fileURLWithPath: directory).appendingPathComponent(
                    (subfolder.isEmpty ? "" : subfolder + "/") + url.lastPathComponent
                ).path
                files.append((path, subfolder))
            }
        }
        return files.sorted { $0.0 < $1.0 }
    }
}
