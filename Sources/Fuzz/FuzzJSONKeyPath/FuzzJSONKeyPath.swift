import Foundation
import FuzzSupport
import PixpipeHTTP

/// libFuzzer's entry point, which must live in the executable: see ``FuzzJSONKeyPathTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONKeyPath(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzJSONKeyPathTarget.testOneInput(start, count)
}

/// Parses JSON and looks up dotted key paths in it.
///
/// An input whose first line is not JSON uses that line as a key path into the rest, so the fuzzer
/// grows paths and documents together: `data.0.name\n{"data":[{"name":1}]}`.
#if !PIXPIPE_FUZZING
    @main
#endif
enum FuzzJSONKeyPathTarget: FuzzTarget {
    /// Key paths looked up in every parsed document, besides the one the input carries.
    private static let fixedKeyPaths = [
        "", "0", "data", "data.items.0.url", "a.b.c", "...", "-1", "9223372036854775807",
    ]

    static func fuzz(_ bytes: UnsafeRawBufferPointer) {
        let data = Data(bytes)
        var keyPaths = fixedKeyPaths
        var document = data
        if let newline = data.firstIndex(of: 0x0A) {
            keyPaths.append(String(decoding: data[..<newline], as: UTF8.self))
            document = data[(newline + 1)...]
        }
        for candidate in [data, document] {
            guard let json = try? JSON(data: candidate) else { continue }
            for keyPath in keyPaths {
                _ = json[keyPath]?.intValue
            }
        }
    }
}
