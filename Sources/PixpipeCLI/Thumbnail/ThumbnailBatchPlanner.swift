import Foundation
import Pixpipe

/// Turns the command line's inputs into jobs: directories expanded, formats sniffed, output names fixed.
///
/// Planning is sequential and in a stable order (arguments in order, directory contents sorted), so two
/// inputs that map to the same output name get the same suffixes on every run; across runs, an output name
/// stays with the source it was first given to (``ThumbnailSourceRecords``), so a new source never takes
/// another's thumbnail for its own.
struct ThumbnailBatchPlanner {
    /// The command's settings.
    let settings: ThumbnailSettings

    /// The jobs for `arguments`; named files in no decodable format become failed jobs, while such files
    /// found inside directories are skipped silently.
    func plan(_ arguments: [String]) -> [ThumbnailJob] {
        var inputs: [(path: String, probe: InputProbe?, error: ThumbnailFailure?)] = []
        let outputRoot = URL(fileURLWithPath: settings.outputDirectory).standardizedFileURL.path
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                inputs.append(
                    (argument, nil, ThumbnailFailure(message: "no such file or directory", kind: "unreadable-file")))
                continue
            }
            if isDirectory.boolValue {
                for path in Self.files(under: argument, excluding: outputRoot) {
                    if let probe = InputProbe(path: path, countsFrames: settings.animated) {
                        inputs.append((path, probe, nil))
                    }
                }
            } else if let probe = InputProbe(path: argument, countsFrames: settings.animated) {
                inputs.append((argument, probe, nil))
            } else {
                inputs.append(
                    (
                        argument, nil,
                        ThumbnailFailure(
                            ImageDecodingError.unsupportedFormat(recognized: RecognizedContent(fileAt: argument)))
                    ))
            }
        }
        var taken: Set<String> = []
        // Opened with the first output name given out: a run where every input fails leaves no file behind.
        var records: ThumbnailSourceRecords?
        var opened = false
        defer { records?.finish() }
        return inputs.map { input in
            let format = settings.format(for: input.probe)
            if let error = input.error {
                return ThumbnailJob(input: input.path, output: nil, format: format, planningError: error)
            }
            var size: (Int, Int)?
            if settings.nameTemplate.needsSize {
                do throws(ThumbnailError) {
                    size = try outputSize(of: input.path)
                } catch {
                    return ThumbnailJob(
                        input: input.path, output: nil, format: format, planningError: ThumbnailFailure(error))
                }
            }
            let base = URL(fileURLWithPath: input.path).deletingPathExtension().lastPathComponent
            let name = settings.nameTemplate.render(
                name: base, width: size?.0, height: size?.1, fileExtension: format.fileExtension)
            // A name another source's thumbnail holds (this run's, or one recorded in the folder) is taken.
            let source = URL(fileURLWithPath: input.path).standardizedFileURL.path
            if !opened {
                records = ThumbnailSourceRecords(directory: settings.outputDirectory)
                opened = true
            }
            var unique = name
            var counter = 2
            while taken.contains(unique) || records.map({ !$0.allows(unique, for: source) }) ?? false {
                unique = OutputNameTemplate.suffixed(name, counter: counter)
                counter += 1
            }
            taken.insert(unique)
            records?.record(unique, for: source)
            let output = URL(fileURLWithPath: settings.outputDirectory).appendingPathComponent(unique).path
            var job = ThumbnailJob(input: input.path, output: output, format: format, planningError: nil)
            job.keepsFrames = settings.keepsFrames(of: input.probe)
            return job
        }
    }

    /// The thumbnail's size from the input's header, for templates that use `{width}` or `{height}`.
    private func outputSize(of path: String) throws(ThumbnailError) -> (Int, Int) {
        let info: ImageInfo
        do {
            info = try Image.info(contentsOfFile: path, options: DecodeOptions(pixelLimit: nil))
        } catch {
            throw .decoding(error)
        }
        let shown =
            settings.options.appliesOrientation
            ? info.metadata.shownSize(width: info.width, height: info.height) : (width: info.width, height: info.height)
        let geometry = try ThumbnailGeometry(
            sourceWidth: shown.width, sourceHeight: shown.height, options: settings.options)
        return (geometry.outputWidth, geometry.outputHeight)
    }

    /// The regular files under `directory`, recursively, sorted, leaving out the output directory.
    private static func files(under directory: String, excluding outputRoot: String) -> [String] {
        let root = URL(fileURLWithPath: directory)
        guard
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey])
        else { return [] }
        var files: [String] = []
        for case let url as URL in enumerator {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
            if values?.isDirectory == true, url.standardizedFileURL.path == outputRoot {
                enumerator.skipDescendants()
            } else if values?.isRegularFile == true {
                files.append(url.path)
            }
        }
        return files.sorted()
    }
}
