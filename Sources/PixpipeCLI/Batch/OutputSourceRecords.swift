import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which source file each output of a batch folder (`thumbnail`, `convert` into a folder) was made from, and
/// with what recipe: `.pixpipe-thumbnails.jsonl` there, one JSON line `{"output": NAME, "source": ABSOLUTE
/// PATH}` per output name given out (NAME relative to the folder, with its subfolders), and one more with
/// `"recipe"` each time an output is written (``appendRecipe(_:name:source:directory:)``); the last
/// recipe of a name is the one its file was made with. Readers that predate recipes ignore the key.
///
/// An output name belongs to the first source recorded for it, for good: a later run never takes it for
/// another source (which would skip that photo as done, its thumbnail another photo's), and never writes
/// over it. A folder from before the records (no record file yet) adopts its existing outputs for the
/// sources that now map to them, as the plain skip did; once the file exists, an unrecorded output is
/// someone else's file and is left alone. Planning holds an exclusive `flock` on the file from reading to
/// appending, so two runs into one folder give out names one after the other.
final class OutputSourceRecords {
    /// The record file's name in the output folder.
    static let fileName = ".pixpipe-thumbnails.jsonl"
    /// The largest record file read.
    static let sizeLimit: off_t = 64 << 20

    private let directory: String
    private let descriptor: Int32
    /// Whether the file existed (with any content) before this run: else existing outputs are adopted.
    private let isNew: Bool
    private var sources: [String: String] = [:]
    private var recipes: [String: String] = [:]
    private var pending = Data()

    /// Opens (creating) and locks the records of `directory`; `nil` when they cannot be opened (a link or
    /// not a regular file under the name is refused): the batch then only writes names no file has.
    init?(directory: String) {
        self.directory = directory
        let path = directory + "/" + Self.fileName
        let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        // Bounded: about 300,000 outputs' records; a larger file is not this program's, and is not read.
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            status.st_size <= Self.sizeLimit, flock(descriptor, LOCK_EX) == 0
        else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[..<count])
            offset += off_t(count)
        }
        isNew = data.isEmpty
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let record = try? JSONDecoder().decode(Record.self, from: Data(line)) else { continue }
            if sources[record.output] == nil { sources[record.output] = record.source }
            if let recipe = record.recipe, sources[record.output] == record.source { recipes[record.output] = recipe }
        }
        // A torn last line (a killed run) must not glue onto the next one.
        if let last = data.last, last != UInt8(ascii: "\n") { pending.append(UInt8(ascii: "\n")) }
    }

    deinit {
        close(descriptor)
    }

    /// Whether output `name` may hold the thumbnail of `source` (an absolute path): recorded for it, or
    /// recorded for none and either free or, in a folder from before the records, already there.
    func allows(_ name: String, for source: String) -> Bool {
        if let owner = sources[name] { return owner == source }
        var status = stat()
        return lstat(directory + "/" + name, &status) != 0 || isNew
    }

    /// The recipe the file under `name` was last written with, or `nil` when none was recorded.
    func recipe(of name: String) -> String? { recipes[name] }

    /// Records `name` as `source`'s output (nothing when it already is).
    func record(_ name: String, for source: String) {
        guard sources[name] == nil else { return }
        sources[name] = source
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let line = try? encoder.encode(Record(output: name, source: source, recipe: nil)) else { return }
        pending.append(line)
        pending.append(UInt8(ascii: "\n"))
    }

    /// Appends the new records (one `write`) and releases the lock.
    func finish() {
        if !pending.isEmpty {
            _ = pending.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            pending.removeAll()
        }
        flock(descriptor, LOCK_UN)
    }

    /// Appends the record that `name` (of `source`) was just written with `recipe`, in one `write` to the
    /// file opened for appending (so lines of concurrent runs never mix); a failure only costs the redo
    /// check of the next run, and is ignored.
    static func appendRecipe(_ recipe: String, name: String, source: String, directory: String) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(Record(output: name, source: source, recipe: recipe)) else { return }
        line.append(UInt8(ascii: "\n"))
        let descriptor = open(
            directory + "/" + fileName, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    private struct Record: Codable {
        var output: String
        var source: String
        var recipe: String?
    }
}
