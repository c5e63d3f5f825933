import Foundation
import Pixpipe

/// The files a command reads when it is given a folder: every regular file under it, recursively, in path
/// order, that looks like an image by its bytes or its extension (so a damaged photo is still reported);
/// other files (notes, `.DS_Store`) are left out without a word, as `vipsheader` users expect of a shell glob.
enum FolderInputs {
    /// Whether `path` names a folder (following a symbolic link to one).
    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The image files under `folder`, sorted by path.
    static func imageFiles(under folder: String) -> [String] {
        let root = URL(fileURLWithPath: folder)
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var files: [String] = []
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            // The path as the user spelled the folder, so records name files the way the argument did.
            var path = url.path
            if path.hasPrefix(root.path + "/") {
                let relative = path.dropFirst(root.path.count + 1)
                path = folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
            }
            if RecognizedContent.looksLikeImage(path: path) { files.append(path) }
        }
        return files.sorted()
    }
}
