import Foundation

/// Standard input (or another stream, such as the FIFO of a shell's `<(command)`) copied to a temporary
/// file, so the list can be read twice (the scan, then the batch) without being held in memory.
struct StandardInputSpool: Sendable {
    /// The temporary file.
    let path: String

    /// Copies `source` (standard input by default), in chunks, to a new temporary file; `name` is how
    /// errors refer to the source.
    init(from source: FileHandle = .standardInput, name: String = "-") throws(FetchRunError) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("pixpipe-list-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw .cannotWrite(path: path, reason: "cannot create a temporary copy of standard input") }
        defer { try? handle.close() }
        do {
            while let chunk = try source.read(upToCount: 1 << 16), !chunk.isEmpty {
                try handle.write(contentsOf: chunk)
            }
        } catch {
            remove()
            throw .unusableList(path: name, reason: (error as NSError).localizedDescription)
        }
    }

    /// Deletes the temporary file.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
