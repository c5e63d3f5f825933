/// The source and destination pixel memory of one resize, handed to the band workers.
///
/// `@unchecked Sendable` is safe here because of how `Image.resized` uses it: `source` is only read
/// while the source image's bytes are pinned; each worker writes only the output rows of its own band,
/// and bands are disjoint ranges of rows, so no two threads write the same byte and nobody reads what
/// is written; `DispatchQueue.concurrentPerform` returns only after every worker has finished, inside
/// the closures that keep both buffers alive, so the pointers never outlive their memory.
struct ResampleBuffers: @unchecked Sendable {
    /// The source pixels, read-only.
    let source: UnsafeRawPointer
    /// The output pixels; each band writes its own rows.
    let destination: UnsafeMutableRawPointer
}
