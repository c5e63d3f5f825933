import FuzzSupport
import Pixpipe

/// libFuzzer's entry point, which must live in the executable: see ``FuzzURLListTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURLList(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzURLListTarget.testOneInput(start, count)
}

/// Reads any bytes as the URL list of `pixpipe fetch`, in every format.
///
/// Every line must end in an entry or a ``URLListError`` and the list must end.
#if !PIXPIPE_FUZZING
    @main
#endif
enum FuzzURLListTarget: FuzzTarget {
    /// The formats every input is read as: detected from its first line, then each format forced.
    private static let formats: [URLListFormat?] = [nil] + URLListFormat.allCases.map(Optional.some)

    static func fuzz(_ bytes: UnsafeRawBufferPointer) {
        for format in formats {
            for element in URLList(bytes: bytes, format: format) {
                switch element {
                case .success(let entry): _ = (entry.url.absoluteString, entry.name, entry.line)
                case .failure(let error): _ = (error.description, error.line)
                }
            }
        }
    }
}
