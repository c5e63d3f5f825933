import Foundation
import PixpipeLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The next free start time of each host, shared by every process that writes to one output folder (the
/// shards of a list), so a per-host rate holds for all of them together rather than for each.
///
/// One small file per host, `.pixpipe/pace/HOST` in the output folder, holds the host's next free start as
/// wall-clock nanoseconds (wall clock, not a monotonic one: shards may run on several machines sharing the
/// folder). Taking a turn locks the file with `flock`, reads the time, writes it moved on by the interval,
/// and unlocks: a few microseconds, so the lock is taken on the calling thread. The folder and files are
/// made on the first paced request only. Any failure to use them (a read-only folder, a file system without
/// `flock`) falls back to pacing within the process, as without shards.
final class SharedHostSlots: Sendable {
    /// The folder of the slot files.
    let folder: String
    /// Open slot files by host; `-1` for a host whose file could not be used.
    private let descriptors = Locked([String: Int32]())

    /// Slots for the processes writing to `outputDirectory`.
    init(outputDirectory: URL) {
        folder = outputDirectory.path + "/.pixpipe/pace"
    }

    deinit {
        for descriptor in descriptors.withLock({ $0.values }) where descriptor >= 0 { close(descriptor) }
    }

    /// Takes `host`'s next turn, no earlier than `notBefore` from now, and moves the shared time on by
    /// `interval`: the wait until the turn, or `nil` when the slot file cannot be used.
    func take(host: String, interval: Duration, notBefore: Duration) -> Duration? {
        let descriptor = self.descriptor(for: host)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX) == 0 else { return nil }
        defer { _ = flock(descriptor, LOCK_UN) }
        var stored: Int64 = 0
        let read = withUnsafeMutableBytes(of: &stored) { pread(descriptor, $0.baseAddress, 8, 0) }
        let next = read == 8 ? stored : 0
        let now = Self.wallClockNanoseconds()
        let turn = max(next, now + Self.nanoseconds(notBefore))
        var following = turn + Self.nanoseconds(interval)
        let written = withUnsafeBytes(of: &following) { pwrite(descriptor, $0.baseAddress, 8, 0) }
        guard written == 8 else { return nil }
        return .nanoseconds(turn - now)
    }

    /// The open slot file of `host`, opened (and the folder made) on first use; `-1` when it cannot be.
    private func descriptor(for host: String) -> Int32 {
        descriptors.withLock { table in
            if let descriptor = table[host] { return descriptor }
            let descriptor = Self.openSlotFile(Self.fileName(for: host), in: folder)
            table[host] = descriptor
            return descriptor
        }
    }

    private static func openSlotFile(_ name: String, in folder: String) -> Int32 {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // O_NOFOLLOW: a link planted in the folder would otherwise have us write where it points.
        return open(folder + "/" + name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
    }

    /// The host as a file name: letters, digits, `.` and `-` kept, anything else (an IPv6 colon) as `_`.
    static func fileName(for host: String) -> String {
        let kept = host.lowercased().unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "a"..."z", "0"..."9", "-": Character(scalar)
            case ".": "."
            default: "_"
            }
        }
        let name = String(kept)
        // Never `.`, `..` or hidden: a host name does not start with a dot, but a list may say anything.
        return name.isEmpty || name.hasPrefix(".") ? "_" + name : name
    }

    private static func wallClockNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
