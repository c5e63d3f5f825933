import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AtomicFileWriter {
    /// The names in the folder at `directoryPath` that ``isTemporary(_:)`` calls temporary files (leftovers of
    /// a killed write); none when the folder cannot be read.
    ///
    /// Read with `readdir`, looking at each name's bytes: only hidden names become `String`s. Foundation's
    /// listing made a `String` of every entry, and a resumed batch lists a folder of all its stored files
    /// (200,000 in the scale benchmark) before its first item.
    package static func temporaryFileNames(in directoryPath: String) -> [String] {
        guard let stream = opendir(directoryPath) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name: String? = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                guard raw.first == UInt8(ascii: ".") else { return nil }
                let length = raw.firstIndex(of: 0) ?? raw.count
                return String(decoding: raw[..<length], as: UTF8.self)
            }
            if let name, isTemporary(name) { names.append(name) }
        }
        return names
    }

    /// Removes the temporary files a killed write left in `directoryPath` and returns their number.
    ///
    /// Only names ``isTemporary(_:)`` accepts, and only when the entry is a regular file or a symbolic link
    /// (the link itself is removed, never what it points to): a folder that happens to carry such a name is
    /// someone's folder, not a leftover, and is never entered or removed. Each entry is looked at and removed
    /// relative to the folder's descriptor, so a folder renamed meanwhile cannot redirect the removal.
    @discardableResult
    package static func removeLeftovers(in directoryPath: String) -> Int {
        let names = temporaryFileNames(in: directoryPath)
        guard !names.isEmpty else { return 0 }
        let folder = open(directoryPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return 0 }
        defer { close(folder) }
        var removed = 0
        for name in names {
            var status = stat()
            guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let type = status.st_mode & S_IFMT
            guard type == S_IFREG || type == S_IFLNK else { continue }
            if unlinkat(folder, name, 0) == 0 { removed += 1 }
        }
        return removed
    }
}
