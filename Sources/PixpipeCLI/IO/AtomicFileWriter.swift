import Foundation
import Pixpipe

/// Writes output files atomically (see ``AtomicFile``): readers see the old file or the whole new one,
/// never a partial one, and a failure leaves nothing behind.
enum AtomicFileWriter {
    /// Writes `data` to `path`, replacing any existing file (whose permissions are kept).
    static func write(_ data: Data, to path: String) throws(OutputWriteError) {
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(data, to: path)
        } catch {
            switch error.step {
            case .createTemporary:
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
                throw .cannotCreateTemporaryFile(directory: directory, errno: error.code)
            case .write, .fsync: throw .writeFailed(path: error.path, errno: error.code)
            case .rename: throw .renameFailed(destination: path, errno: error.code)
            }
        }
    }
}
