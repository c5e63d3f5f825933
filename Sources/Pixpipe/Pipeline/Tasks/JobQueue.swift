/// The waiting line of one pipeline stage (downloads or decodes): at most `width` jobs run, and the next to
/// run is the waiting job of highest priority, the earliest queued among equals.
///
/// A value type with `mutating` events and no I/O, owned by ``ImagePipelineCoordinator`` under its lock and
/// tested alone. It only decides: the coordinator starts what it returns.
///
/// Each priority level is an array ordered by arrival, read from a head index. Removing a job or moving it
/// to another level leaves its old slot behind; a slot counts only while `waiting` still records that
/// level and sequence number for its job, so both are O(1) (a move is a binary-search insert by arrival,
/// keeping FIFO order among jobs that arrived at other priorities).
struct JobQueue<ID: Hashable & Sendable>: Sendable {
    typealias Priority = ImageRequest.Priority

    private struct Slot: Sendable {
        let id: ID
        let sequence: UInt64
    }

    /// The most jobs running at once (at least 1).
    let width: Int
    /// The jobs running now.
    private(set) var running = 0
    private var levels = [[Slot]](repeating: [], count: Priority.allCases.count)
    private var heads = [Int](repeating: 0, count: Priority.allCases.count)
    private var waiting: [ID: (priority: Priority, sequence: UInt64)] = [:]
    private var nextSequence: UInt64 = 0

    /// An empty queue running at most `width` jobs at once.
    init(width: Int) {
        self.width = max(1, width)
    }

    /// How many jobs wait.
    var waitingCount: Int { waiting.count }

    /// Whether `id` waits in the queue.
    func isWaiting(_ id: ID) -> Bool { waiting[id] != nil }

    /// Adds `id` at `priority` to the waiting jobs (``startable()`` says when it may run).
    mutating func enqueue(_ id: ID, priority: Priority) {
        nextSequence += 1
        waiting[id] = (priority, nextSequence)
        insert(Slot(id: id, sequence: nextSequence), at: priority)
    }

    /// Moves a waiting job to `priority`, keeping its place by arrival among that level; nothing for a job
    /// that does not wait.
    mutating func setPriority(_ id: ID, to priority: Priority) {
        guard let entry = waiting[id], entry.priority != priority else { return }
        waiting[id] = (priority, entry.sequence)
        insert(Slot(id: id, sequence: entry.sequence), at: priority)
    }

    /// Takes a waiting job out of the queue; `false` when it was not waiting.
    @discardableResult
    mutating func remove(_ id: ID) -> Bool {
        guard waiting.removeValue(forKey: id) != nil else { return false }
        if waiting.isEmpty {
            // Every slot left is stale: drop them, so removals without pops do not pile up.
            for level in levels.indices {
                levels[level].removeAll(keepingCapacity: true)
                heads[level] = 0
            }
        }
        return true
    }

    /// Records that a running job ended, leaving room for ``startable()``.
    mutating func finish() {
        running = max(0, running - 1)
    }

    /// The waiting jobs that fit under the width now, most urgent first (each then counts as running).
    mutating func startable() -> [ID] {
        var started: [ID] = []
        while running < width, let id = popMostUrgent() {
            running += 1
            started.append(id)
        }
        return started
    }

    private mutating func popMostUrgent() -> ID? {
        for level in levels.indices.reversed() {
            while heads[level] < levels[level].count {
                let slot = levels[level][heads[level]]
                heads[level] += 1
                if let entry = waiting[slot.id], entry.priority.rawValue == level, entry.sequence == slot.sequence {
                    waiting[slot.id] = nil
                    compact(level)
                    return slot.id
                }
            }
            compact(level)
        }
        return nil
    }

    private mutating func insert(_ slot: Slot, at priority: Priority) {
        let level = priority.rawValue
        if levels[level].last.map({ $0.sequence < slot.sequence }) ?? true {
            levels[level].append(slot)
            return
        }
        // Arrived before jobs already at this level: its place by arrival, found by binary search.
        var low = heads[level]
        var high = levels[level].count
        while low < high {
            let middle = (low + high) / 2
            if levels[level][middle].sequence < slot.sequence { low = middle + 1 } else { high = middle }
        }
        levels[level].insert(slot, at: low)
    }

    /// Drops a level's spent prefix once it is most of the array, so the arrays do not grow without bound.
    private mutating func compact(_ level: Int) {
        if heads[level] == levels[level].count {
            levels[level].removeAll(keepingCapacity: true)
            heads[level] = 0
        } else if heads[level] > 64, heads[level] * 2 > levels[level].count {
            levels[level].removeFirst(heads[level])
            heads[level] = 0
        }
    }
}
