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
}
