/// When the files a batch stores are flushed to the disk.
///
/// Either way each file appears under its name only complete (written beside it, then named), so a
/// killed process never leaves a partial file; the choice only matters for a power failure or a crash of
/// the machine.
///
/// ```swift
/// options.fileSync = .eachFile   // a slow disk, a fragile machine: pay one fsync per file
/// ```
public enum FileSync: Sendable, Hashable {
    /// Flush each file and its folder entry before the item's manifest line is written. Nothing the
    /// manifest records as stored is ever lost, at the price of two `fsync` calls per file.
    case eachFile
    /// Flush the file system once when the batch ends, then the manifest. A power failure mid-batch may
    /// lose files whose manifest lines exist; the next run checks each recorded file's SHA-256 before
    /// skipping it, so such files are fetched again. The default.
    case atEnd
}
