import Foundation
import Pixpipe

extension AtomicFileWriter {
    /// Writes an output file of `convert` or `thumbnail` to `path` atomically (replacing any file there, whose
    /// permissions are kept), its failure reported as an ``OutputWriteError``.
    static func writeOutput(_ data: Data, to path: String) throws(OutputWriteError) {
        do throws(Failure) {
            try write(data, to: path)
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
