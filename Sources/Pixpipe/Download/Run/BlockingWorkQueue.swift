import Dispatch
import PixpipeLocking

/// Runs blocking work (file system calls) on Dispatch's threads instead of the cooperative pool, on a
/// fixed number of serial lanes.
///
/// Off the pool: it has one thread per core, and a thread parked in `openat` or `linkat` (hundreds of
/// microseconds each on a journaling file system, far more on a busy disk) is a core that resumes no
/// finished transfer and starts no decode meanwhile.
///
/// Few lanes, not one thread per write: every create and link in one folder takes that folder's lock in
/// the kernel, so 32 items writing at once (a concurrent queue, as this was) mostly spin on it
/// (`rwsem_spin_on_owner` and ext4's inode allocation topped the kernel profile) and cost more system time
/// than the writes. A lane does its writes one after the other, in the order items hand them over.
///
/// Bounded: each item waits for its own write to finish before it goes on, and at most the batch's window
/// of items exists, so no more than a window of finished files is ever queued here, whatever the list.
struct BlockingWorkQueue: Sendable {
    /// The lanes the downloader uses: two. Measured on 2,000 small files from nginx into ext4 (see
    /// docs/benchmarks.md, "File creation"): with the default end-of-batch sync, one lane and two are
    /// within the noise of each other and both below a concurrent queue's system time; with `--fsync-each`
    /// two lanes took about half the time of one (a lane waiting on a file's flush is a lane not creating
    /// the next file; two let one write while the other flushes, and the journal commits both flushes at
    /// once), and less than a concurrent queue, whose creates again fight over the folder.
    static let defaultLanes = 2

    private let lanes: [DispatchQueue]
    private let next = Locked(0)

    /// A queue named `label` for Dispatch's thread listings, doing work on `lanes` serial lanes (`0`: as
    /// many as Dispatch gives, one concurrent queue).
    init(label: String, lanes: Int = defaultLanes) {
        if lanes <= 0 {
            self.lanes = [DispatchQueue(label: label, qos: .userInitiated, attributes: .concurrent)]
        } else {
            self.lanes = (0..<lanes).map { DispatchQueue(label: "\(label).\($0)", qos: .userInitiated) }
        }
    }

    /// Runs `work` on the next lane and returns its result.
    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        let lane: DispatchQueue
        if lanes.count == 1 {
            lane = lanes[0]
        } else {
            let index = next.withLock { counter in
                defer { counter = (counter + 1) % lanes.count }
                return counter
            }
            lane = lanes[index]
        }
        return await withCheckedContinuation { continuation in
            lane.async { continuation.resume(returning: work()) }
        }
    }
}
