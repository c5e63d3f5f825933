import Foundation
import Testing

@testable import Pixpipe

@Suite("Event channel: events sent in batches")
struct EventChannelTests {
    private func event(_ index: Int) -> DownloadEvent {
        .finished(index: index, record: ManifestRecord(url: "https://example.com/\(index)", status: .skipped))
    }

    private func index(of event: DownloadEvent?) -> Int? {
        guard case .finished(let index, _) = event else { return nil }
        return index
    }

    @Test("A batch larger than the buffer arrives whole and in order, the sender waiting for room")
    func batchOverCapacity() async {
        let channel = EventChannel(capacity: 4)
        let sender = Task {
            await channel.send(contentsOf: (0..<10).map(event))
            await channel.send(contentsOf: (10..<13).map(event))
            await channel.send(event(13))
            channel.finish()
        }
        var received: [Int] = []
        while let next = await channel.next() { received.append(index(of: next) ?? -1) }
        await sender.value
        #expect(received == Array(0..<14))
    }

    @Test("A waiting consumer gets the batch's first event, then the rest without another send")
    func waitingConsumer() async {
        let channel = EventChannel(capacity: 64)
        let consumer = Task { () -> [Int] in
            var received: [Int] = []
            while received.count < 5, let next = await channel.next() { received.append(index(of: next) ?? -1) }
            return received
        }
        // Whether or not the consumer is already waiting, it must get all five in order.
        await channel.send(contentsOf: (0..<5).map(event))
        #expect(await consumer.value == [0, 1, 2, 3, 4])
    }

    @Test("After the consumer abandons the channel, a batch is dropped and the sender does not wait")
    func abandoned() async {
        let channel = EventChannel(capacity: 2)
        channel.abandon()
        await channel.send(contentsOf: (0..<10).map(event))
        channel.finish()
        #expect(await channel.next() == nil)
    }

    @Test("nextBatch takes every buffered event in order, at most its limit, and nil after the end")
    func batchesInOrder() async {
        let channel = EventChannel(capacity: 64)
        await channel.send(contentsOf: (0..<10).map(event))
        channel.finish()
        var batches: [[Int]] = []
        while let batch = await channel.nextBatch(limit: 4) { batches.append(batch.map { index(of: $0) ?? -1 }) }
        #expect(batches == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]])
    }

    @Test("nextBatch waits for the first event, and taking a full buffer lets a waiting sender go on")
    func batchReleasesSenders() async {
        let channel = EventChannel(capacity: 3)
        let sender = Task {
            await channel.send(contentsOf: (0..<20).map(event))
            channel.finish()
        }
        var received: [Int] = []
        while let batch = await channel.nextBatch(limit: 100) {
            // The first event may be handed over directly, the rest come from the buffer of 3.
            #expect(!batch.isEmpty && batch.count <= 4)
            received += batch.map { index(of: $0) ?? -1 }
        }
        await sender.value
        #expect(received == Array(0..<20))
    }
}
