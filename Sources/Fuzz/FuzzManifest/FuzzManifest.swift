import Foundation
import FuzzSupport
import Pixpipe

/// libFuzzer's entry point, which must live in the executable: see ``FuzzManifestTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzManifestTarget.testOneInput(start, count)
}

/// Reads any bytes as an output folder's `manifest.jsonl`, as a resumed `pixpipe fetch` does: hostile lines
/// (long, torn, escaped, duplicate keys, invalid UTF-8) must be read or reported, never trap, never grow
/// memory past the line limit, and never make opening cut more than a torn last line
/// (``ManifestFuzzing/check(_:in:)`` says what is checked).
#if !PIXPIPE_FUZZING
    @main
#endif
enum FuzzManifestTarget: FuzzTarget {
    /// One folder for the whole process, its manifest replaced per input.
    private static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pixpipe-fuzz-manifest-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // Removed when the process exits (libFuzzer ends with `exit`), so runs leave nothing behind.
        atexit { try? FileManager.default.removeItem(at: FuzzManifestTarget.folder) }
        return url
    }()

    static func fuzz(_ bytes: UnsafeRawBufferPointer) {
        ManifestFuzzing.check(bytes, in: folder)
    }
}
