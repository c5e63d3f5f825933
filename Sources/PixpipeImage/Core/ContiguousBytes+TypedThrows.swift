import Foundation

extension ContiguousBytes {
    /// Calls `body` with the bytes and passes its typed error through.
    ///
    /// Foundation's `withUnsafeBytes` only rethrows `any Error`; this is the one bridge (through a `Result`)
    /// that keeps a typed error typed, for `Data`, `[UInt8]` and every other contiguous byte store.
    package func withTypedBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = withUnsafeBytes { bytes in Result { () throws(E) in try body(bytes) } }
        return try result.get()
    }
}

extension Array where Element == UInt8 {
    /// Calls `body` with the mutable bytes and passes its typed error through (see ``withTypedBytes(_:)``).
    package mutating func withTypedMutableBytes<R, E: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let result: Result<R, E> = withUnsafeMutableBytes { bytes in Result { () throws(E) in try body(bytes) } }
        return try result.get()
    }
}
