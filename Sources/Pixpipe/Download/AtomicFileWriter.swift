import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file so its final name only ever shows complete bytes, even across a crash or power loss.
///
/// The bytes go to `.NAME.part-XXXXXX` in the same folder (same file system, so the rename is atomic;
/// hidden, so no output name can clash with it: output names never start with a dot), are flushed with
/// `fsync`, renamed over `NAME`, and the folder itself is flushed so the rename survives. On any failure
/// the temporary file is removed and a ``DownloadError/write(path:operation:code:)`` says which step failed.
struct AtomicFileWriter: DownloadFileWriting {
    /// The marker in temporary names; leftovers carrying it are removed when a batch starts.
    static let temporaryMarker = ".part-"

    /// Whether `fileName` is one of this writer's temporary files.
    static func isTemporary(_ fileName: String) -> Bool {
        fileName.hasPrefix(".") && fileName.contains(temporaryMarker)
    }

    func write(_ data: Data, named name: String, in directory: URL) throws(DownloadError) {
        let finalPath = directory.appendingPathComponent(name).path
        var template = Array(directory.appendingPathComponent(".\(name)\(Self.temporaryMarker)XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            mkstemp(buffer.baseAddress!)  // The buffer is a non-empty array: its base address exists.
        }
        guard descriptor >= 0 else {
            throw .write(path: finalPath, operation: "create a temporary file for", code: errno)
        }
        let temporaryPath = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        do throws(DownloadError) {
            defer { close(descriptor) }
            _ = fchmod(descriptor, 0o644)
            try Self.writeAll(data, to: descriptor, path: temporaryPath)
            guard fsync(descriptor) == 0 else { throw .write(path: temporaryPath, operation: "fsync", code: errno) }
        } catch {
            unlink(temporaryPath)
            throw error
        }
        guard rename(temporaryPath, finalPath) == 0 else {
            let code = errno
            unlink(temporaryPath)
            throw .write(path: finalPath, operation: "rename a temporary file to", code: code)
        }
        Self.syncDirectory(directory)
    }

    /// Writes every byte, resuming after short writes and interruptions.
    static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(DownloadError) {
        let failure: Int32? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .write(path: path, operation: "write", code: failure) }
    }

    /// Flushes the folder's entries (the rename); a failure here loses nothing already visible, so it is ignored.
    static func syncDirectory(_ directory: URL) {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}

/// The C `write`, reachable where a method of the same name hides it.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
