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
}
