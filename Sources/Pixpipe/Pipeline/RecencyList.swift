/// Values by key in order of use, with a running total of their costs: the bookkeeping of both caches.
///
/// A dictionary from key to a slot index, and a doubly linked list threaded through the slots by index
/// (each slot names its older and newer neighbour), so that a lookup, moving an entry to the newest end,
/// inserting and dropping the oldest are all O(1): no array is scanned or shifted. Freed slots are reused
/// through a free list, so the slot array grows only to the largest number of entries held at once.
///
/// A value type with no locking of its own: each cache keeps one inside its `Locked`.
struct RecencyList<Key: Hashable, Value> {
    /// One entry, linked to its neighbours by slot index (`nil` at either end).
    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var older: Int?
        var newer: Int?
    }

    private var slots: [Node?] = []
    private var freeSlots: [Int] = []
    private var indices: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?

    /// The sum of the costs of the entries held.
    private(set) var totalCost = 0

    /// The number of entries held.
    var count: Int { indices.count }

    /// Whether `key` is held.
    func contains(_ key: Key) -> Bool { indices[key] != nil }

    /// The value for `key` without changing the order of use.
    func peek(_ key: Key) -> Value? {
        indices[key].flatMap { slots[$0]?.value }
    }

    /// The value for `key`, which becomes the most recently used.
    mutating func touch(_ key: Key) -> Value? {
        guard let index = indices[key] else { return nil }
        unlink(index)
        linkAsNewest(index)
        return slots[index]?.value
    }

    /// Stores `value` for `key` as the most recently used, replacing any value there; returns the one replaced.
    @discardableResult
    mutating func insert(_ value: Value, for key: Key, cost: Int) -> Value? {
        let replaced = remove(key)
        let node = Node(key: key, value: value, cost: cost, older: nil, newer: nil)
        let index: Int
        if let reused = freeSlots.popLast() {
            index = reused
            slots[index] = node
        } else {
            index = slots.count
            slots.append(node)
        }
        indices[key] = index
        totalCost += cost
        linkAsNewest(index)
        return replaced
    }

    /// Removes the entry for `key` and returns its value.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let index = indices.removeValue(forKey: key), let node = slots[index] else { return nil }
        unlink(index)
        slots[index] = nil
        freeSlots.append(index)
        totalCost -= node.cost
        return node.value
    }

    /// The least recently used key, if any.
    var oldestKey: Key? { oldest.flatMap { slots[$0]?.key } }

    /// Removes the least recently used entry and returns it.
    mutating func removeOldest() -> (key: Key, value: Value, cost: Int)? {
        guard let index = oldest, let node = slots[index] else { return nil }
        remove(node.key)
        return (node.key, node.value, node.cost)
    }

    /// Every key, least recently used first (O(n); for sweeps and tests).
    var keysOldestFirst: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var cursor = oldest
        while let index = cursor, let node = slots[index] {
            keys.append(node.key)
            cursor = node.newer
        }
        return keys
    }

    /// Removes every entry.
    mutating func removeAll() {
        self = RecencyList()
    }

    /// Detaches slot `index` from the list, joining its neighbours.
    private mutating func unlink(_ index: Int) {
        guard let node = slots[index] else { return }
        if let older = node.older { slots[older]?.newer = node.newer } else { oldest = node.newer }
        if let newer = node.newer { slots[newer]?.older = node.older } else { newest = node.older }
        slots[index]?.older = nil
        slots[index]?.newer = nil
    }

    /// Attaches the detached slot `index` at the newest end.
    private mutating func linkAsNewest(_ index: Int) {
        slots[index]?.older = newest
        slots[index]?.newer = nil
        if let newest { slots[newest]?.newer = index } else { oldest = index }
        newest = index
    }
}
