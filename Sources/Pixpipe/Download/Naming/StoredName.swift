import CPixpipeSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place a file name read back from an output folder's records becomes a file of that folder.
///
/// The manifest is a file in a folder that others may have written (a shared folder, an archive unpacked
/// from elsewhere), so the `name` of a line is untrusted: `../victim/important.txt`, `/etc/passwd` or a
/// symbolic link planted in the folder must never make a resume count an outside file as stored, nor a
/// refresh replace it or a prune delete it. A stored name is used only when it is a name this program
/// could have written (``isValid(_:)``: the rules ``FileNameSanitizer`` and ``FileNamePattern`` keep for
/// new names, which are one path component), and then only relative to the folder's descriptor, never
/// following a symbolic link (``open(_:in:)``, ``remove(_:in:)``): `openat2` with `RESOLVE_BENEATH` and
/// `RESOLVE_NO_SYMLINKS` where the kernel has it, else `openat` with `O_NOFOLLOW`. Regular files only.
enum StoredName {
    /// The longest name used, in UTF-8 bytes: the file systems' own limit (`NAME_MAX`); the writer stays
    /// under ``FileNameSanitizer/maxNameBytes``.
    static let maxBytes = 255

    /// Whether `name` (UTF-8) is a name this program could have written into the folder: 1 to ``maxBytes``
    /// bytes of valid UTF-8, one path component (no `/` nor `\`), not starting with a dot (so neither `.`,
    /// `..`, a hidden file, nor one of the writer's `.NAME.part-XXXX` temporary files), no `..` anywhere,
    /// and no control character (C0, DEL, C1), bidirectional control or line or paragraph separator.
    static func isValid<Bytes: Collection<UInt8>>(_ name: Bytes) -> Bool {
        guard let first = name.first, first != UInt8(ascii: "."), name.count <= maxBytes else { return false }
        var previous: UInt8 = 0
        var isASCII = true
        for byte in name {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") { return false }
            if byte == UInt8(ascii: "."), previous == UInt8(ascii: ".") { return false }
            if byte >= 0x80 { isASCII = false }
            previous = byte
        }
        // Most names are ASCII; the others are decoded once to check their scalars.
        guard !isASCII else { return true }
        guard let text = String(validating: name, as: UTF8.self) else { return false }
        return text.unicodeScalars.allSatisfy { !isRefused($0) }
    }

    /// ``isValid(_:)`` of the UTF-8 of `name`.
    static func isValid(_ name: String) -> Bool {
        isValid(name.utf8)
    }

    /// Whether `scalar`, beyond ASCII, is one no written name holds: C1 controls, the bidirectional
    /// controls (which make a name display as another) and the line and paragraph separators.
    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Opens the stored file `name` of the folder open as `directory` for reading; -1 with `errno` set when
    /// it cannot: `EINVAL` for a name that fails ``isValid(_:)``, `ELOOP` (or `EXDEV`) for a symbolic link.
    /// `O_NONBLOCK`, so that a FIFO under the name cannot block (it then fails the caller's regular-file
    /// test, made on the descriptor with `fstat`).
    static func open(_ name: [UInt8], in directory: Int32) -> Int32 {
        guard isValid(name) else {
            errno = EINVAL
            return -1
        }
        return name.withUnsafeBufferPointer { bytes in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { path in
                for (index, byte) in bytes.enumerated() { path[index] = CChar(bitPattern: byte) }
                path[bytes.count] = 0
                return pxp_open_beneath(directory, path.baseAddress, O_CLOEXEC | O_NONBLOCK)
            }
        }
    }

    /// Removes the stored file `name` of the folder open as `directory`; `true` when no such file is there
    /// any more. Only a regular file that is the name itself is removed (`unlinkat` relative to the folder,
    /// after `fstatat` without following a link): a name that fails ``isValid(_:)``, a link, a folder or
    /// anything else is left alone and gives `false`.
    @discardableResult
    static func remove(_ name: String, in directory: Int32) -> Bool {
        guard isValid(name) else { return false }
        var status = stat()
        guard fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return errno == ENOENT }
        guard status.st_mode & S_IFMT == S_IFREG else { return false }
        return unlinkat(directory, name, 0) == 0 || errno == ENOENT
    }

    /// ``remove(_:in:)`` with the folder at `directory` opened for the call.
    @discardableResult
    static func remove(_ name: String, in directory: URL) -> Bool {
        let descriptor = openFolder(directory.path)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return remove(name, in: descriptor)
    }
}

/// The C `open` of a folder for `openat`-style calls; reachable from a type with its own `open`.
func openFolder(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
}
