/// The items of paced hosts held back from a batch's window, so that a host kept to a slow rate cannot fill
/// the window with items waiting for their turns and hold back the other hosts of the list.
///
/// Each paced host has at most ``perHost`` items in the window (its per-host concurrency: no more could
/// transfer at once anyway); the coordinator parks its further items here, in list order, and reads on.
/// When one of the host's counted items ends, its next parked item takes that place in the window and is
/// counted in turn, whether or not the host is still paced: a pace can end (a slowdown recovers) while
/// items are parked, and each parked item is then released by the one before it, so none is left behind.
/// While a host has parked items its new items park behind them, paced or not, keeping list order.
/// Parked items are small (an ``ItemJob``: the URL, its columns and its name) and no more than
/// ``capacity`` are kept; past that they go into the window as they come, waiting there as every item once
/// did, so the list is never read further ahead than the capacity allows.
struct HostParking {
    /// The most items of one paced host in the window at once.
    let perHost: Int
    /// The most items parked at once.
    let capacity: Int
    /// How many items of each paced host are in the window.
    private var inWindow: [String: Int] = [:]
    /// The paced host of each item in the window that counts against its host, by list index.
    private var hostOfIndex: [Int: String] = [:]
    /// Parked items by host, oldest first from the host's head index.
    private var parked: [String: (jobs: [ItemJob], head: Int)] = [:]
    /// How many items are parked.
    private(set) var count = 0

    init(perHost: Int, capacity: Int) {
        self.perHost = max(1, perHost)
        self.capacity = max(0, capacity)
    }

    /// Whether `job`, of the paced host `host`, may go into the window now (it is then counted there);
    /// otherwise it is parked until an item of its host ends.
    mutating func admit(_ job: ItemJob, host: String) -> Bool {
        if (inWindow[host, default: 0] < perHost && parked[host] == nil) || count >= capacity {
            inWindow[host, default: 0] += 1
            hostOfIndex[job.index] = host
            return true
        }
        parked[host, default: ([], 0)].jobs.append(job)
        count += 1
        return false
    }

    /// Whether `job` is parked now rather than going into the window: `pacedHost` is its host when that
    /// host is paced now (`nil` otherwise); an unpaced host's item parks only behind its host's parked items.
    mutating func parks(_ job: ItemJob, pacedHost: String?) -> Bool {
        if let pacedHost { return !admit(job, host: pacedHost) }
        guard count > 0 else { return false }
        let host = HostRequestPacer.host(job.item.url)
        return parked[host] != nil && !admit(job, host: host)
    }

    /// The item at list index `index` ended: the next parked item of its host, if any, to go into the window
    /// now, where it takes the ended item's place and is counted for its host.
    mutating func ended(index: Int) -> ItemJob? {
        guard let host = hostOfIndex.removeValue(forKey: index) else { return nil }
        guard let job = unpark(host) else {
            inWindow[host, default: 1] -= 1
            if inWindow[host] == 0 { inWindow[host] = nil }
            return nil
        }
        hostOfIndex[job.index] = host
        return job
    }

    /// Every parked item, counted in the window, for a batch whose window has emptied: by the rule above a
    /// host with parked items always has a counted item in the window, so this returns none, and is there
    /// so that a break of that rule costs order, never items.
    mutating func releaseAll() -> [ItemJob] {
        var released: [ItemJob] = []
        for host in parked.keys.sorted() {
            while let job = unpark(host) {
                inWindow[host, default: 0] += 1
                hostOfIndex[job.index] = host
                released.append(job)
            }
        }
        return released.sorted { $0.index < $1.index }
    }

    /// Takes `host`'s oldest parked item.
    private mutating func unpark(_ host: String) -> ItemJob? {
        guard var queue = parked[host] else { return nil }
        let job = queue.jobs[queue.head]
        queue.head += 1
        count -= 1
        if queue.head == queue.jobs.count {
            parked[host] = nil
        } else {
            // Spent places are dropped once they are half the array, so a long-paced host's queue stays small.
            if queue.head * 2 >= queue.jobs.count {
                queue.jobs.removeFirst(queue.head)
                queue.head = 0
            }
            parked[host] = queue
        }
        return job
    }
}
