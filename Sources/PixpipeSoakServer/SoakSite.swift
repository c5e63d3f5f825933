import Foundation
import PixpipeTestSupport

/// The hostile site: `count` image URLs with their behaviours, plus `/__list` (the URLs, one per line)
/// and `/__stats` (per URL: behaviour, whether it can be served, attempts seen), installed on a server.
///
/// `GET /soak/N.ext?pristine` answers the good image without counting an attempt, so a checker can
/// compare stored files with what the server meant to serve.
struct SoakSite: Sendable {
    /// How many image URLs there are.
    let count: Int
    /// The seed that picks each URL's behaviour.
    let seed: UInt64
    /// Where attempts are counted.
    let ledger: SoakLedger
    /// The image bodies.
    let images = SoakImages()

    /// A site of `count` URLs whose behaviours follow `seed`.
    init(count: Int, seed: UInt64) {
        self.count = count
        self.seed = seed
        ledger = SoakLedger(count: count)
    }

    /// The path of URL number `index`.
    func path(of index: Int) -> String {
        "/soak/\(index).\(SoakImages.fileExtension(of: index))"
    }

    /// Installs every route on `server`.
    func install(on server: TestHTTPServer) {
        for index in 0..<count {
            server.route(path(of: index), .handler { request in answer(index, request) })
        }
        let base = server.baseURL.absoluteString
        let list = (0..<count).map { base + path(of: $0) + "\n" }.joined()
        server.route("/__list", .text(list))
        server.route("/__stats", .handler { _ in .json(statistics(base: base)) })
    }

    private func answer(_ index: Int, _ request: RecordedRequest) -> TestRoute {
        let body = images.bytes(of: index)
        let good = TestRoute.respond(
            headers: ["Content-Type": index.isMultiple(of: 2) ? "image/png" : "image/jpeg"], body: body)
        if request.query == "pristine" { return good }
        let attempt = ledger.recordAttempt(index)
        switch SoakBehavior(index: index, seed: seed) {
        case .normal:
            return good
        case .failing(let failures, let status):
            return attempt <= failures ? .respond(status: status, body: []) : good
        case .reset:
            return attempt == 1 ? .reset : good
        case .truncatedTransfer:
            return attempt == 1
                ? .truncated(body: Array(body.prefix(body.count / 2)), declaredLength: body.count) : good
        case .truncatedImage:
            let half = Array(body.prefix(body.count / 2))
            return attempt == 1 ? .respond(headers: ["Content-Type": "application/octet-stream"], body: half) : good
        case .slow:
            return .trickle(body: body, chunkSize: (body.count + 3) / 4, interval: 0.05)
        case .notAnImage:
            return .text("<html><body>No image here</body></html>", contentType: "text/html")
        }
    }

    /// One entry of `/__stats`.
    private struct Entry: Encodable {
        var index: Int
        var url: String
        var behavior: String
        var servable: Bool
        var attempts: Int
    }

    private func statistics(base: String) -> String {
        let attempts = ledger.snapshot
        let entries = (0..<count).map { index in
            let behavior = SoakBehavior(index: index, seed: seed)
            return Entry(
                index: index, url: base + path(of: index), behavior: behavior.name, servable: behavior.isServable,
                attempts: attempts[index])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // An array of plain structs of strings, numbers and booleans always encodes.
        let data = (try? encoder.encode(entries)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
