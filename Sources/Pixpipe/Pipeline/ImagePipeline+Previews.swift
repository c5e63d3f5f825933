import PixpipeImage

/// One element of ``ImagePipeline/images(for:)``: a preview while the bytes arrive, or the final image.
public enum ImageLoadEvent: Sendable {
    /// A progressive JPEG decoded as far as it has arrived (reduced size, without the processing).
    case preview(Image)
    /// The request's image, processed and cached as ``ImagePipeline/image(for:)`` returns it.
    case final(Image)
}

extension ImagePipeline {
    /// Previews of `request`'s progressive JPEG while it downloads, then its final image.
    ///
    /// ```swift
    /// for try await event in pipeline.images(for: ImageRequest(url: photoURL)) {
    ///     if case .preview(let preview) = event { show(preview) }
    ///     if case .final(let image) = event { show(image) }
    /// }
    /// ```
    ///
    /// The stream ends after ``ImageLoadEvent/final(_:)``, or throws the ``ImageLoadError``; a memory
    /// hit, a disk hit, a baseline JPEG or another format give the final image only. Ending the iteration
    /// early cancels the request's share of the work. Previews are never cached; see
    /// ``ImageRequest/onPreview`` for their size and for coalesced callers.
    public func images(for request: ImageRequest) -> AsyncThrowingStream<ImageLoadEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ImageLoadEvent.self)
        var request = request
        let earlier = request.onPreview
        request.onPreview = { preview in
            earlier?(preview)
            continuation.yield(.preview(preview))
        }
        let task = imageTask(with: request)
        task.onFinish(queue: nil) { result in
            switch result {
            case .success(let image):
                continuation.yield(.final(image))
                continuation.finish()
            case .failure(let error):
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
