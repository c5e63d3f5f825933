import Foundation
import FuzzSupport
import Pixpipe

/// The formats every input is read as: detected from its first line, then each format forced.
private let formats: [URLListFormat?] = [nil] + URLListFormat.allCases.map(Optional.some)

/// libFuzzer's entry point: reads any bytes as the URL list of `pixpipe fetch`, in every format.
///
/// Every line must end in an entry or a ``URLListError`` and the list must end; a trap, a sanitizer
/// report, a hang or unbounded memory is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURLList(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInputRunner.bytes(start, count)
    for format in formats {
        for element in URLList(bytes: bytes, format: format) {
            switch element {
            case .success(let entry): _ = (entry.url.absoluteString, entry.name, entry.line)
            case .failure(let error): _ = (error.description, error.line)
            }
        }
    }
    return 0
}

#if !PIXPIPE_FUZZING
    /// Without libFuzzer: reads each file named on the command line, as a regression runner.
    @main
    enum FuzzURLListRunner {
        /// Runs every argument through ``fuzzURLList(_:_:)``.
        static func main() { FuzzInputRunner.main(entry: fuzzURLList) }
    }
#endif
