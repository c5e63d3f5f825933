import Testing

@testable import Pixpipe

@Suite("Pipeline job queue")
struct JobQueueTests {
    @Test("Runs at most its width, the most urgent first, then in order of arrival")
    func order() {
        var queue = JobQueue<String>(width: 2)
        queue.enqueue("a", priority: .low)
        queue.enqueue("b", priority: .normal)
        queue.enqueue("c", priority: .veryHigh)
        queue.enqueue("d", priority: .normal)
        queue.enqueue("e", priority: .veryLow)
        let first = queue.startable()
        let none = queue.startable()
        #expect(first == ["c", "b"] && none.isEmpty)
        #expect(queue.running == 2 && queue.waitingCount == 3)
        queue.finish()
        let third = queue.startable()
        #expect(third == ["d"])
        queue.finish()
        queue.finish()
        let last = queue.startable()
        #expect(last == ["a", "e"])
        #expect(queue.waitingCount == 0)
    }

    @Test("A priority change moves a waiting job, keeping its place by arrival among its new level")
    func priorityChange() {
        var queue = JobQueue<Int>(width: 1)
        for id in 0..<6 { queue.enqueue(id, priority: .normal) }
        queue.setPriority(0, to: .low)
        queue.setPriority(4, to: .high)
        queue.setPriority(2, to: .high)
        // Back to normal: between 1 and 3 again, by arrival.
        queue.setPriority(0, to: .normal)
        var started: [Int] = []
        while queue.waitingCount > 0 {
            started += queue.startable()
            queue.finish()
        }
        #expect(started == [2, 4, 0, 1, 3, 5])
    }

    @Test("A removed job never starts; a job enqueued again starts once, at its new place")
    func removal() {
        var queue = JobQueue<String>(width: 1)
        queue.enqueue("a", priority: .normal)
        queue.enqueue("b", priority: .normal)
        queue.enqueue("c", priority: .normal)
        let removed = queue.remove("a")
        let removedAgain = queue.remove("a")
        #expect(removed && !removedAgain)
        queue.enqueue("a", priority: .normal)
        #expect(queue.isWaiting("a"))
        var started: [String] = []
        while queue.waitingCount > 0 {
            started += queue.startable()
            queue.finish()
        }
        #expect(started == ["b", "c", "a"])
        // Removing every waiting job leaves an empty queue that still counts what runs.
        queue.enqueue("x", priority: .high)
        let x = queue.startable()
        #expect(x == ["x"])
        queue.enqueue("y", priority: .high)
        let removedY = queue.remove("y")
        #expect(removedY && queue.waitingCount == 0 && queue.running == 1)
        queue.finish()
        let nothing = queue.startable()
        #expect(nothing.isEmpty && queue.running == 0)
    }

    @Test("Thousands of waiting jobs come out by priority and arrival")
    func many() {
        var queue = JobQueue<Int>(width: 1)
        var generator = SystemRandomNumberGenerator()
        var expected: [[Int]] = Array(repeating: [], count: 5)
        for id in 0..<5_000 {
            let priority = ImageRequest.Priority.allCases.randomElement(using: &generator) ?? .normal
            queue.enqueue(id, priority: priority)
            expected[priority.rawValue].append(id)
        }
        var started: [Int] = []
        while queue.waitingCount > 0 {
            started += queue.startable()
            queue.finish()
        }
        #expect(started == expected.reversed().flatMap { $0 })
    }
}
