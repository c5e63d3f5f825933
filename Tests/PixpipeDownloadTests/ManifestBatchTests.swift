import Foundation
import PixpipeTestSupport
import Testing

@testable import Pixpipe

/// The manifest's lines are written in batches: none lost at the end, none reordered.
@Suite("Manifest written in batches")
struct ManifestBatchTests {
    private func record(_ number: Int) -> ManifestRecord {
        ManifestRecord(url: "http://127.0.0.1:1/r\(number).png", name: "r\(number).png", status: .ok)
    }

    @Test("Lines held in a batch are written, in order, by synchronize and by releasing the store")
    func pendingLinesWritten() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        do {
            let (store, _) = try ManifestStore.open(named: "manifest.jsonl", in: folder.url, readsPrior: true)
            for number in 0..<5 { try store.append(record(number)) }
            try store.synchronize()
            #expect(folder.manifest().map(\.url) == (0..<5).map { record($0).url })
            for number in 5..<8 { try store.append(record(number)) }
        }
        #expect(folder.manifest().map(\.url) == (0..<8).map { record($0).url })
    }

    @Test("More lines than a batch: every one written once, in the order appended")
    func manyBatches() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let count = ManifestStore.batchLines * 3 + 7
        let (store, _) = try ManifestStore.open(named: "manifest.jsonl", in: folder.url, readsPrior: true)
        for number in 0..<count { try store.append(record(number)) }
        // Full batches are out before the end; only the last partial one may wait.
        #expect(folder.manifest().count >= ManifestStore.batchLines * 3)
        try store.synchronize()
        #expect(folder.manifest().map(\.url) == (0..<count).map { record($0).url })
    }

    @Test("A batch's manifest has one line per item, in the order the items finished")
    func batchOrder() async throws {
        let server = try TestHTTPServer()
        let items = (0..<150).map { number in
            server.route("/m\(number).png", .respond(body: Bodies.png(seed: number)))
            return DownloadItem(url: server.url("/m\(number).png"))
        }
        let folder = TemporaryFolder()
        let events = await collectEvents(Downloader(options: testOptions(folder)), items)
        var finished: [String] = []
        for case .finished(_, let record) in events { finished.append(record.url) }
        #expect(finished.count == 150)
        #expect(folder.manifest().map(\.url) == finished)
    }
}
