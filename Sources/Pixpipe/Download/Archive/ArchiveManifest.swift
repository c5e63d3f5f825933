import Foundation
import PixpipeImage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder manifest of an archive output: read for the archives it records, appended to once an archive
/// is in place (so a line never names an archive the folder does not hold whole).
enum ArchiveManifest {
    /// The records of the manifest at `path` that name an archive; torn or foreign lines are left out.
    static func archivedRecords(at path: String) -> [ManifestRecord] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let record = try? decoder.decode(ManifestRecord.self, from: Data(line)), record.archive != nil
            else { return nil }
            return record
        }
    }

    /// Appends `records` to the manifest at `path` in one write (several processes may append to it at once:
    /// `O_APPEND` keeps each write whole), then flushes it.
    static func append(to path: String, _ records: [ManifestRecord]) throws(DownloadError) {
        guard !records.isEmpty else { return }
        var bytes = Data()
        for record in records { bytes.append(record.jsonLine) }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .write(path: path, operation: "open", code: errno) }
        defer { close(descriptor) }
        do throws(AtomicFileWriter.Failure) {
            try AtomicFileWriter.writeAll(bytes, to: descriptor, path: path)
        } catch {
            throw DownloadError(error)
        }
        guard fsync(descriptor) == 0 else { throw .write(path: path, operation: "fsync", code: errno) }
    }

    /// Records each of `lineErrors` (the list's unusable lines) the manifest at `path` does not record yet as
    /// a failed line, as a plain batch does; under a share `I/N` only share 0 does, so merged folders hold
    /// each once.
    static func record<Invalid: Sequence>(
        lineErrors: Invalid, at path: String, share: Shard?
    ) throws(DownloadError) where Invalid.Element == URLListError {
        guard (share?.index ?? 0) == 0 else { return }
        var recorded = Set<String>()
        if let data = FileManager.default.contents(atPath: path) {
            let decoder = JSONDecoder()
            for line in data.split(separator: UInt8(ascii: "\n")) {
                guard let record = try? decoder.decode(ManifestRecord.self, from: Data(line)), record.isLineError
                else { continue }
                recorded.insert(record.url)
            }
        }
        var batch: [ManifestRecord] = []
        for error in lineErrors {
            let record = ManifestRecord(lineError: error)
            guard recorded.insert(record.url).inserted else { continue }
            batch.append(record)
            if batch.count == 1000 {
                try append(to: path, batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        try append(to: path, batch)
    }
}
