import Foundation
import PixpipeHTTP

/// One entry of a ``DataCache``: the original bytes and what HTTP said about them.
public struct DataCacheEntry: Sendable, Hashable {
    /// The bytes stored.
    public var data: Data
    /// The response's caching metadata, when the bytes came from HTTP.
    public var metadata: HTTPCacheMetadata?

    /// An entry from its parts.
    public init(data: Data, metadata: HTTPCacheMetadata? = nil) {
        self.data = data
        self.metadata = metadata
    }
}

/// The file format of an entry, which lets a reader tell a whole entry from anything else.
///
/// A fixed 56-byte header, then the key (UTF-8), the metadata (JSON, possibly empty) and the body:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | magic `PXDC` |
/// | 4 | 2 | format version, big-endian (1) |
/// | 6 | 2 | reserved, zero |
/// | 8 | 4 | key length |
/// | 12 | 4 | metadata length |
/// | 16 | 8 | body length |
/// | 24 | 32 | SHA-256 of the key, the metadata and the body, in that order |
///
/// A file is an entry only when its length is exactly the header's sum and the digest matches, so a
/// truncated file, a flipped bit anywhere, a file of another format or version, or zeros left by a power
/// failure before the data reached the disk all read as "not an entry". The key is stored to tell two keys
/// apart whose file names collide (never seen with SHA-256, but cheaper to check than to argue).
enum DataCacheEntryFormat {
    static let magic: [UInt8] = Array("PXDC".utf8)
    static let version: UInt16 = 1
    static let headerSize = 56

    /// The bytes of a file holding `entry` for `key`.
    static func encode(_ entry: DataCacheEntry, key: String) -> Data {
        let keyBytes = Data(key.utf8)
        // Encoding plain numbers and strings cannot fail.
        let metadataBytes = entry.metadata.map { (try? JSONEncoder().encode($0)) ?? Data() } ?? Data()
        var hasher = SHA256()
        hasher.update(keyBytes)
        hasher.update(metadataBytes)
        hasher.update(entry.data)
        let digest = hasher.finalize()

        var file = Data(capacity: headerSize + keyBytes.count + metadataBytes.count + entry.data.count)
        file.append(contentsOf: magic)
        append(version, to: &file)
        append(UInt16(0), to: &file)
        append(UInt32(keyBytes.count), to: &file)
        append(UInt32(metadataBytes.count), to: &file)
        append(UInt64(entry.data.count), to: &file)
        file.append(contentsOf: digest.bytes)
        file.append(keyBytes)
        file.append(metadataBytes)
        file.append(entry.data)
        return file
    }

    /// The size in bytes of a whole file with `header` (its first ``headerSize`` bytes), or `nil` when the
    /// header is not this format's: read before the rest, so that no more is read than an entry can hold.
    static func declaredFileSize(_ header: Data) -> UInt64? {
        let bytes = [UInt8](header.prefix(headerSize))
        guard bytes.count == headerSize, Array(bytes[0..<4]) == magic,
            readInteger(bytes, at: 4, as: UInt16.self) == version
        else { return nil }
        let keyLength = UInt64(readInteger(bytes, at: 8, as: UInt32.self))
        let metadataLength = UInt64(readInteger(bytes, at: 12, as: UInt32.self))
        let (total, overflow) = (UInt64(headerSize) + keyLength + metadataLength).addingReportingOverflow(
            readInteger(bytes, at: 16, as: UInt64.self))
        return overflow ? nil : total
    }

    /// The entry in `file` if it is a whole, unaltered entry for `key`; `nil` otherwise.
    static func decode(_ file: Data, key: String) -> DataCacheEntry? {
        let bytes = [UInt8](file.prefix(headerSize))
        guard bytes.count == headerSize, Array(bytes[0..<4]) == magic,
            readInteger(bytes, at: 4, as: UInt16.self) == version
        else { return nil }
        let keyLength = Int(readInteger(bytes, at: 8, as: UInt32.self))
        let metadataLength = Int(readInteger(bytes, at: 12, as: UInt32.self))
        let bodyLength = readInteger(bytes, at: 16, as: UInt64.self)
        // Compared in UInt64 so that a flipped high bit of the body length cannot overflow an Int.
        guard UInt64(file.count - headerSize) == UInt64(keyLength + metadataLength) &+ bodyLength,
            bodyLength <= UInt64(file.count)
        else { return nil }
        let start = file.startIndex + headerSize
        let keyRange = start..<start + keyLength
        let metadataRange = keyRange.upperBound..<keyRange.upperBound + metadataLength
        let bodyRange = metadataRange.upperBound..<file.endIndex
        var hasher = SHA256()
        hasher.update(file[keyRange])
        hasher.update(file[metadataRange])
        hasher.update(file[bodyRange])
        guard hasher.finalize().bytes == Array(bytes[24..<56]), file[keyRange].elementsEqual(key.utf8) else {
            return nil
        }
        var metadata: HTTPCacheMetadata?
        if metadataLength > 0 {
            guard let decoded = try? JSONDecoder().decode(HTTPCacheMetadata.self, from: file[metadataRange]) else {
                return nil
            }
            metadata = decoded
        }
        // A copy, so that the body starts at index 0 like any other `Data`.
        return DataCacheEntry(data: Data(file[bodyRange]), metadata: metadata)
    }

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to data: inout Data) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }

    private static func readInteger<Integer: FixedWidthInteger>(_ bytes: [UInt8], at offset: Int, as: Integer.Type)
        -> Integer
    {
        bytes[offset..<offset + MemoryLayout<Integer>.size].reduce(0) { ($0 << 8) | Integer($1) }
    }
}
