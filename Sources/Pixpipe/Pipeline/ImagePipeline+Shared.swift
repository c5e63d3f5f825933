import Foundation
import PixpipeHTTP

extension ImagePipeline {
    /// The pipeline to use when one will do: the shared HTTP client, a memory cache with the default limits,
    /// and a 256 MiB disk cache in the user's cache folder (``DataCache/defaultDirectory``).
    ///
    /// ```swift
    /// let image = try await ImagePipeline.shared.image(for: URL(string: "https://example.com/cat.jpg")!)
    /// let icon = try await ImagePipeline.shared.image(for: URL(fileURLWithPath: "icon.png"))
    /// ```
    ///
    /// Made on first use, as is its cache folder (with its parents, owner-only); nothing is created by a
    /// program that never asks for it. When the folder cannot be made (no home folder, a read-only disk),
    /// the pipeline keeps working with its memory cache only: its ``configuration``'s `dataCache` is `nil`.
    /// Programs that want other limits make their own ``ImagePipeline`` with a ``Configuration``.
    public static let shared = ImagePipeline(
        configuration: Configuration(
            dataCache: DataCache.defaultDirectory.flatMap { try? DataCache.openCreatingParents($0) }))
}
