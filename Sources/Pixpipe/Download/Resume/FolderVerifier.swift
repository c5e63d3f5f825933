import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One stored file that is not as the manifest records it.
public struct StoredFileProblem: Sendable, Hashable, Codable {
    /// What is wrong, with a stable short name.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// No file under the recorded name.
        case missing
        /// A file of another size than recorded.
        case wrongSize = "wrong-size"
        /// A file of the recorded size whose SHA-256 differs.
        case wrongHash = "wrong-hash"
        /// A recorded name that is not one plain name inside the folder (`/`, `..`, empty), or a symbolic link.
        case unsafeName = "unsafe-name"
        /// A folder, FIFO, device or socket under the recorded name.
        case notRegularFile = "not-regular-file"
        /// The file could not be opened or read (permissions, an I/O error).
        case unreadable

        /// The stable short name (as `--json` and the README's error table write it).
        public var shortName: String { rawValue }
    }

    /// The item's URL, as recorded.
    public var url: String
    /// The recorded file name.
    public var name: String
    /// What is wrong.
    public var kind: Kind
    /// The recorded size.
    public var expectedBytes: Int
    /// The file's size, when there is a regular file.
    public var actualBytes: Int?
    /// The recorded SHA-256.
    public var expectedSHA256: String
    /// The file's SHA-256, when it was read whole.
    public var actualSHA256: String?
}

/// What ``FolderVerifier`` found in a folder.
public struct FolderVerification: Sendable, Hashable {
    /// How many stored files the manifest records (latest line per URL).
    public var checked = 0
    /// The files not as recorded, in the manifest's order.
    public var problems: [StoredFileProblem] = []
    /// Manifest lines that could not be read (skipped).
    public var unreadableLines = 0
}

/// Checks an output folder against its manifest: every stored item's file is there, inside the folder, with
/// its recorded size and SHA-256.
///
/// The item of a URL is what its latest manifest line says, read through the downloader's own reader: a
/// line naming a file with a size and a hash (`ok`, `unchanged`, and the `failed` or `gone` lines of a
/// refresh that kept the stored file). Each name is opened relative to the folder's descriptor, as one
/// plain name, with `O_NOFOLLOW` (a link is a problem, never followed) and `O_NONBLOCK` (a FIFO cannot hang
/// the check); a file of the wrong size is not read.
public enum FolderVerifier {
    /// Verifies `folder` against its manifest `manifestName`.
    public static func verify(
        folder: URL, manifestName: String = "manifest.jsonl"
    ) throws(DownloadError) -> FolderVerification {
        let manifestPath = folder.appendingPathComponent(manifestName).path
        let descriptor = open(manifestPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP { throw .unsafeManifest(path: manifestPath, type: fileTypeName(S_IFLNK)) }
            throw .manifestUnreadable(path: manifestPath, code: code)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .manifestUnreadable(path: manifestPath, code: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .unsafeManifest(path: manifestPath, type: fileTypeName(status.st_mode))
        }
        // Non-blocking was only for the open: reading a regular file never blocks anyway.
        var order: [String] = []
        var latest: [String: Stored] = [:]
        var result = FolderVerification()
        let validLength = ManifestReader.forEachLine(
            in: descriptor, lanes: 1, prepare: { $0 }, skipped: { _ in result.unreadableLines += 1 }
        ) { line, _ in
            if latest.updateValue(Stored(line), forKey: line.url) == nil { order.append(line.url) }
        }
        guard validLength != nil else { throw .manifestUnreadable(path: manifestPath, code: errno) }
        let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw .manifestUnreadable(path: folder.path, code: errno) }
        defer { close(directory) }
        var checker = FileChecker()
        for url in order {
            guard let stored = latest[url], let file = stored.file else { continue }
            result.checked += 1
            if let problem = checker.check(file, url: url, in: directory) { result.problems.append(problem) }
        }
        return result
    }

    /// What one URL's latest line says about its file.
    private struct Stored {
        var file: (name: String, bytes: Int, sha256: String)?

        init(_ line: ManifestLine) {
            switch line.status {
            case .ok, .unchanged, .failed, .gone:
                if let name = line.name, let bytes = line.bytes, let sha256 = line.sha256 {
                    let words = sha256.words
                    let hex = String(format: "%016llx%016llx%016llx%016llx", words.0, words.1, words.2, words.3)
                    file = (name, bytes, hex)
                }
            case .skipped: file = nil
            }
        }
    }

    /// Opens and hashes files with one buffer.
    private struct FileChecker {
        private var buffer = [UInt8](repeating: 0, count: 256 << 10)

        mutating func check(
            _ file: (name: String, bytes: Int, sha256: String), url: String, in directory: Int32
        ) -> StoredFileProblem? {
            var problem = StoredFileProblem(
                url: url, name: file.name, kind: .missing, expectedBytes: file.bytes, expectedSHA256: file.sha256)
            // The one resolution of a stored name (``StoredName``): one plain name, inside the folder, no link.
            let descriptor = StoredName.open(Array(file.name.utf8), in: directory)
            guard descriptor >= 0 else {
                switch errno {
                case ENOENT: problem.kind = .missing
                case EINVAL, ELOOP, EXDEV: problem.kind = .unsafeName
                default: problem.kind = .unreadable
                }
                return problem
            }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                problem.kind = .unreadable
                return problem
            }
            guard status.st_mode & S_IFMT == S_IFREG else {
                problem.kind = .notRegularFile
                return problem
            }
            problem.actualBytes = Int(status.st_size)
            guard Int(status.st_size) == file.bytes else {
                problem.kind = .wrongSize
                return problem
            }
            var hasher = SHA256()
            var total = 0
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else {
                    problem.kind = .unreadable
                    return problem
                }
                if count == 0 { break }
                buffer.withUnsafeBytes { hasher.update(bytes: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                total += count
            }
            let digest = hasher.finalize().hexString
            problem.actualBytes = total
            if total != file.bytes {
                problem.kind = .wrongSize
                return problem
            }
            guard digest == file.sha256 else {
                problem.actualSHA256 = digest
                problem.kind = .wrongHash
                return problem
            }
            return nil
        }
    }
}
