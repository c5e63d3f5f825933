import Foundation
import PixpipeLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension DataCache {
    /// Whether `name` is an entry file's name: 64 lowercase hex digits.
    static func isEntryName(_ name: String) -> Bool {
        name.utf8.count == 64
            && name.utf8.allSatisfy {
                ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
            }
    }

    /// The index of the entry files in `directory`, oldest modification time first, after removing the
    /// temporary files of writers that must have died (older than ``abandonedTemporaryAge``; younger ones
    /// may belong to another process writing now, whose rename would fail if they vanished).
    static func scan(_ directory: URL) -> RecencyList<String, FileRecord> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let now = Date()
        var records: [(name: String, record: FileRecord)] = []
        for name in names {
            let path = directory.appendingPathComponent(name).path
            var status = stat()
            // `lstat`: a symbolic link is no entry, whatever it points to.
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            #if canImport(Darwin)
                let time = status.st_mtimespec
            #else
                let time = status.st_mtim
            #endif
            let modified = Date(timeIntervalSince1970: TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9)
            if AtomicFileWriter.isTemporary(name) {
                if now.timeIntervalSince(modified) > abandonedTemporaryAge { unlink(path) }
                continue
            }
            guard isEntryName(name) else { continue }
            records.append((name, FileRecord(size: Int(status.st_size), modified: modified)))
        }
        // Oldest first, so that the most recently modified ends as the most recently used; names break ties
        // so that the order does not depend on the directory's.
        records.sort { ($0.record.modified, $0.name) < ($1.record.modified, $1.name) }
        var list = RecencyList<String, FileRecord>()
        for (name, record) in records { list.insert(record, for: name, cost: record.size) }
        return list
    }
}
