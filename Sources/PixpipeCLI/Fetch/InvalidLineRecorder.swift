import Foundation
import Pixpipe

/// Appends the list's unusable lines to the manifest as `failed` records, before the batch opens it.
///
/// A record's `url` is the offending text (or `line N` when there is none) and its `errorKind` the line
/// error's kind (`invalid-url`, `unsupported-scheme`, `invalid-line`). A rerun does not append a record the
/// manifest already holds, so resuming leaves the same manifest as one uninterrupted run.
final class InvalidLineRecorder {
    private let handle: FileHandle
    private var recorded: Set<String>
    private let encoder = JSONLineEncoder()

    /// Opens (creating) the manifest at `path` and reads the unusable lines it already records.
    init(manifest path: String) throws(FetchRunError) {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw .cannotWrite(path: path, reason: "cannot create the manifest")
            }
        }
        guard let handle = FileHandle(forUpdatingAtPath: path) else {
            throw .cannotWrite(path: path, reason: "cannot open the manifest")
        }
        self.handle = handle
        // Read back through the list parser: a record whose url is not a usable URL comes back as an error
        // carrying the same text, which is exactly the key this recorder writes.
        recorded = Set(
            URLList(source: .file(path), format: .jsonl).compactMap { element in
                switch element {
                case .failure(.invalidURL(let text, _)), .failure(.unsupportedScheme(_, let text, _)): text
                default: nil
                }
            })
        do {
            // A killed run may have left a line without its newline; start on a fresh line.
            let end = try handle.seekToEnd()
            if end > 0 {
                try handle.seek(toOffset: end - 1)
                if try handle.read(upToCount: 1) != Data("\n".utf8) { try handle.write(contentsOf: Data("\n".utf8)) }
            }
        } catch {
            throw .cannotWrite(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    deinit {
        try? handle.close()
    }

    /// Appends a failed record for `error` unless the manifest already has it.
    func record(_ error: URLListError) throws(FetchRunError) {
        let key = error.offendingText
        guard recorded.insert(key).inserted else { return }
        let record = ManifestRecord(
            url: key, status: .failed, attempts: 0, error: error.description, errorKind: error.kind)
        do {
            try handle.write(contentsOf: Data((encoder.line(for: record) + "\n").utf8))
        } catch {
            throw .cannotWrite(path: "manifest", reason: (error as NSError).localizedDescription)
        }
    }
}
