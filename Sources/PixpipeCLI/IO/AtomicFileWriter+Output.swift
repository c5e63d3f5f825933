import Foundation
import Pixpipe

extension AtomicFileWriter {
    /// Writes an output file of `convert` or `thumbnail` to `path` atomically (replacing any file there, whose
    /// permissions are kept), its failure reported as an ``OutputWriteError``.
    static func writeOutput(_ data: Data, to path: String) throws(OutputWriteError) {
        do throws(Failure) {
            try write(data, to: path)
        } catch {
            throw outputError(error, path: path)
        }
    }

    /// Writes `image` to `path` with `encoding` as ``writeOutput(_:to:)`` does, encoding it into the file as
    /// it goes rather than into memory first; `false`, with nothing written, where the codec cannot.
    static func writeOutput(_ image: Image, as encoding: ImageEncoding, to path: String) throws -> Bool {
        do {
            return try image.writeRows(to: path, as: encoding)
        } catch let error as Failure {
            throw outputError(error, path: path)
        }
    }

    /// Writes a new output file to `path` as ``writeOutput(_:to:)`` does, unless something already has the
    /// name: then `false`, and nothing is changed.
    static func writeNewOutput(_ data: Data, to path: String) throws(OutputWriteError) -> Bool {
        do throws(Failure) {
            return try writeNew(data, to: path)
        } catch {
            throw outputError(error, path: path)
        }
    }

    /// The ``OutputWriteError`` of a failed write to `path`.
    static func outputError(_ error: Failure, path: String) -> OutputWriteError {
        switch error.step {
        case .createTemporary where error.code == ENOENT:
            return .noSuchFolder(OutputWriteError.folderName(of: path))
        case .createTemporary:
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            return .cannotCreateTemporaryFile(directory: directory, errno: error.code)
        case .write, .fsync: return .writeFailed(path: error.path, errno: error.code)
        case .rename: return .renameFailed(destination: path, errno: error.code)
        }
    }
}
