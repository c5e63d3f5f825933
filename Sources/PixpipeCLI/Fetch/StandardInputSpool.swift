import Foundation

/// Standard input copied to a temporary file, so the list can be read twice (the scan, then the batch)
/// without being held in memory.
struct StandardInputSpool: Sendable {
    /// The temporary file.
    let path: String

    /// Copies standard input, in chunks, to a new temporary file.
    init() throws(FetchRunError) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("pixpipe-list-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw .cannotWrite(path: path, reason: "cannot create a temporary copy of standard input") }
        defer { try? handle.close() }
        do {
            while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 16), !chunk.isEmpty {
                try handle.write(contentsOf: chunk)
            }
        } catch {
            remove()
            throw .unusableList(path: "-", reason: (error as NSError).localizedDescription)
        }
    }

    /// Deletes the temporary file.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
