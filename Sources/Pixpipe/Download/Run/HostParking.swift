/// The items of paced hosts held back from a batch's window, so that a host kept to a slow rate cannot fill
/// the window with items waiting for their turns and hold back the other hosts of the list.
///
/// Each paced host has at most ``perHost`` items in the window (its per-host concurrency: no more could
/// transfer at once anyway); the coordinator parks its further items here, in list order, and reads on.
/// When one of the host's items ends, its next parked item takes the place. Parked items are small (an
/// ``ItemJob``: the URL, its columns and its name) and no more than ``capacity`` are kept; past that they
/// go into the window as they come, waiting there as every item once did, so the list is never read
/// further ahead than the capacity allows.
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
        if inWindow[host, default: 0] < perHost || count >= capacity {
            inWindow[host, default: 0] += 1
            hostOfIndex[job.index] = host
            return true
        }
        parked[host, default: ([], 0)].jobs.append(job)
        count += 1
        return false
    }

    /// The item at list index `index` ended: the next parked item of its host, if any, to be admitted now.
    mutating func ended(index: Int) -> ItemJob? {
        guard let host = hostOfIndex.removeValue(forKey: index) else { return nil }
        inWindow[host, default: 1] -= 1
        if inWindow[host] == 0 { inWindow[host] = nil }
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
