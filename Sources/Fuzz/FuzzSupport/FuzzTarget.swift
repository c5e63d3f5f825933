/// One libFuzzer target: the code that is its own, ``fuzz(_:)``; everything around it comes from here.
///
/// A target file holds the type, marked `@main` only without `PIXPIPE_FUZZING` (with it, libFuzzer
/// supplies `main`), and the C entry point libFuzzer calls, which must be declared in the executable
/// itself and only forwards to ``testOneInput(_:_:)``:
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// public func fuzzExample(_ start: UnsafeRawPointer?, _ count: Int) -> CInt { Example.testOneInput(start, count) }
///
/// #if !PIXPIPE_FUZZING
///     @main
/// #endif
/// enum Example: FuzzTarget {
///     static func fuzz(_ bytes: UnsafeRawBufferPointer) { _ = ImageFormat.sniff(bytes) }
/// }
/// ```
public protocol FuzzTarget {
    /// Runs one input. It must end normally whatever the bytes: a trap, a sanitizer report, a hang or
    /// unbounded memory is a bug.
    static func fuzz(_ bytes: UnsafeRawBufferPointer)
}

extension FuzzTarget {
    /// The body of `LLVMFuzzerTestOneInput`: runs ``fuzz(_:)`` on libFuzzer's `(pointer, count)` pair,
    /// whose pointer may be null for empty input, and returns 0 (the input is kept in the corpus).
    public static func testOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
        fuzz(FuzzInputRunner.bytes(start, count))
        return 0
    }

    /// The `main` of the target built without libFuzzer: runs ``fuzz(_:)`` on every file named on the
    /// command line (see ``FuzzInputRunner``).
    public static func main() {
        FuzzInputRunner.main(fuzz)
    }
}
