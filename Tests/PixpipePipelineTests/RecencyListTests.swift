import Testing

@testable import Pixpipe

@Suite("Recency list")
struct RecencyListTests {
    @Test("Random operations agree with an array model")
    func againstModel() {
        var list = RecencyList<Int, Int>()
        // The model: keys oldest first, with values and costs.
        var model: [(key: Int, value: Int, cost: Int)] = []
        var state: UInt64 = 12_345
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for step in 0..<20_000 {
            let key = random(50)
            switch random(5) {
            case 0, 1:
                let cost = random(10)
                list.insert(step, for: key, cost: cost)
                model.removeAll { $0.key == key }
                model.append((key, step, cost))
            case 2:
                let value = list.touch(key)
                if let index = model.firstIndex(where: { $0.key == key }) {
                    #expect(value == model[index].value)
                    model.append(model.remove(at: index))
                } else {
                    #expect(value == nil)
                }
            case 3:
                #expect(list.remove(key) == model.first { $0.key == key }?.value)
                model.removeAll { $0.key == key }
            default:
                let oldest = list.removeOldest()
                #expect(oldest?.key == model.first?.key)
                if !model.isEmpty { model.removeFirst() }
            }
            #expect(list.count == model.count)
        }
        #expect(list.keysOldestFirst == model.map(\.key))
        #expect(list.totalCost == model.reduce(0) { $0 + $1.cost })
        #expect(list.oldestKey == model.first?.key)
    }
}
