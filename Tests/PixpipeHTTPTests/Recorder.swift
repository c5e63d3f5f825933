import PixpipeLocking

/// A thread-safe list that callbacks running on other threads append to.
final class Recorder<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>([])

    /// Appends `element` and returns how many elements there are now.
    @discardableResult
    func append(_ element: Element) -> Int {
        storage.withLock { items in
            items.append(element)
            return items.count
        }
    }

    /// Everything appended so far, in order.
    var all: [Element] { storage.withLock { $0 } }
}
