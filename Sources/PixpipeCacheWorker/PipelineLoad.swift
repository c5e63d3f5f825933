import Foundation
import Pixpipe

/// `PixpipeCacheWorker load DIR URL...`: loads each URL through an `ImagePipeline` over the disk cache in
/// DIR, as a second run of a program would, and prints `WIDTHxHEIGHT` per image (or `error NAME`), then
/// `requests R notModified N diskHits D`. Exits 1 when an image failed.
func loadThroughPipeline(directory: String, urls: [String]) async -> Int32 {
    let cache: DataCache
    do {
        cache = try DataCache(directory: URL(fileURLWithPath: directory))
    } catch {
        print("error \(error)")
        return 2
    }
    let client = HTTPClient(configuration: .init(retryPolicy: RetryPolicy.none))
    let pipeline = ImagePipeline(configuration: .init(client: client, dataCache: cache))
    var failed = false
    for string in urls {
        guard let url = URL(string: string) else { return 2 }
        do {
            let image = try await pipeline.image(for: url)
            print("\(image.width)x\(image.height)")
        } catch {
            print("error \(error.shortName)")
            failed = true
        }
    }
    let statistics = pipeline.statistics
    print(
        "requests \(statistics.networkRequests) notModified \(statistics.notModified) diskHits \(statistics.diskHits)")
    return failed ? 1 : 0
}

/// `PixpipeCacheWorker shared URL...`: loads each URL through `ImagePipeline.shared`, as a program with no
/// configuration of its own would, and prints `WIDTHxHEIGHT SOURCE` per image (or `error NAME`), then
/// `cache DIR` (the shared disk cache's folder, or `none`). Exits 1 when an image failed.
func loadThroughSharedPipeline(urls: [String]) async -> Int32 {
    var failed = false
    for string in urls {
        guard let url = URL(string: string) else { return 2 }
        do {
            let response = try await ImagePipeline.shared.imageResponse(for: ImageRequest(url: url))
            print("\(response.image.width)x\(response.image.height) \(response.source.rawValue)")
        } catch {
            print("error \(error.shortName)")
            failed = true
        }
    }
    print("cache \(ImagePipeline.shared.configuration.dataCache?.directory.path ?? "none")")
    return failed ? 1 : 0
}
