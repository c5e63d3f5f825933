import Foundation

extension DataCache {
    /// The folder ``ImagePipeline/shared`` keeps its disk cache in: `$XDG_CACHE_HOME/pixpipe` on Linux, or
    /// `~/.cache/pixpipe` when `XDG_CACHE_HOME` is unset, empty or relative (as the XDG Base Directory
    /// specification says); `~/Library/Caches/pixpipe` on macOS. `nil` when there is no home folder.
    ///
    /// ```swift
    /// let cache = try DataCache(directory: DataCache.defaultDirectory!.appendingPathComponent("avatars"))
    /// ```
    public static var defaultDirectory: URL? {
        #if os(macOS)
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?
                .appendingPathComponent("pixpipe", isDirectory: true)
        #else
            defaultDirectory(environment: ProcessInfo.processInfo.environment)
        #endif
    }

    /// The Linux rule of ``defaultDirectory`` for `environment`: `XDG_CACHE_HOME` when absolute, else
    /// `HOME/.cache`, then `pixpipe`.
    package static func defaultDirectory(environment: [String: String]) -> URL? {
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
            return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("pixpipe", isDirectory: true)
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".cache/pixpipe", isDirectory: true)
    }

    /// Opens the cache in `directory`, first making its missing parents (owner-only, as the XDG
    /// specification asks of the cache base folder).
    static func openCreatingParents(_ directory: URL) throws -> DataCache {
        try FileManager.default.createDirectory(
            at: directory.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        return try DataCache(directory: directory)
    }
}
