#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why ``DataCache`` could not open its folder or store an entry, with the system error.
public enum DataCacheError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The folder could not be created or is not a folder.
    case cannotCreateDirectory(path: String, code: Int32)
    /// An entry could not be written (`code` is `ENOSPC` when the disk is full).
    case cannotWrite(path: String, code: Int32)

    /// The failure in a sentence.
    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let code):
            "cannot create the cache folder \(path): \(String(cString: strerror(code)))"
        case .cannotWrite(let path, let code):
            "cannot write the cache entry \(path): \(String(cString: strerror(code)))"
        }
    }
}
