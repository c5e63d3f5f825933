import Foundation
import PixpipeLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pace of each host, shared by every process that writes to one output folder (the shards of a list),
/// so a per-host rate, a slowdown and a `Retry-After` pause hold for all of them together rather than for each.
///
/// One small file per host, `.pixpipe/pace/HOST` in the output folder, holds two little-endian 64-bit
/// numbers: the host's next free start as wall-clock nanoseconds (wall clock, not a monotonic one: shards may
/// run on several machines sharing the folder), which a `Retry-After` pause moves on, and the host's current
/// extra interval (its slowdown) in nanoseconds. Each use locks the file with `flock`, reads, writes what
/// changed and unlocks: a few microseconds, so the lock is taken on the calling thread. A file of the older
/// 8-byte form reads as no slowdown. The folder and files are made on first use. Any failure to use them (a
/// read-only folder, a file system without `flock`) falls back to pacing within the process, as without shards.
final class SharedHostSlots: Sendable {
    /// What a host's file holds.
    struct Record: Equatable {
        /// The next free start, wall-clock nanoseconds.
        var nextStart: Int64 = 0
        /// The extra interval between two starts, nanoseconds.
        var slowdown: Int64 = 0
    }

    /// The folder of the pace files.
    let folder: String
    /// Open pace files by host; `-1` for a host whose file could not be used. At most ``openFileLimit``
    /// are kept open; further hosts' files are opened for each use.
    private let descriptors = Locked([String: Int32]())
    /// Pace files kept open at most: a list of many hosts must not run the process out of descriptors.
    static let openFileLimit = 128

    /// The largest slowdown a file is taken to hold, whatever it says.
    private static let longestSlowdown = nanoseconds(HostRequestPacer.maximumSlowdown)

    /// Pace files for the processes writing to `outputDirectory`.
    init(outputDirectory: URL) {
        folder = outputDirectory.path + "/.pixpipe/pace"
    }

    deinit {
        for descriptor in descriptors.withLock({ $0.values }) where descriptor >= 0 { close(descriptor) }
    }

    /// Takes `host`'s next turn, no earlier than `notBefore` from now, and moves the shared time on by `base`
    /// plus the shared slowdown: the wait until the turn and the slowdown, or `nil` when the file cannot be used.
    func take(host: String, base: Duration, notBefore: Duration) -> (wait: Duration, slowdown: Duration)? {
        let now = Self.wallClockNanoseconds()
        return update(host: host) { record in
            let turn = max(record.nextStart, now + Self.nanoseconds(notBefore))
            let interval = Self.nanoseconds(base) + record.slowdown
            if interval > 0 { record.nextStart = turn + interval }
            return (Duration.nanoseconds(turn - now), Duration.nanoseconds(record.slowdown))
        }
    }

    /// `host` said it is overloaded: with `retryAfter` its next free start moves to at least that long from
    /// now; without, its slowdown grows (to ``HostRequestPacer/initialSlowdown``, else doubled up to
    /// ``HostRequestPacer/maximumSlowdown``) and the next start waits `base` plus the slowdown from now. The
    /// slowdown now, or `nil` when the file cannot be used.
    func overloaded(host: String, base: Duration, retryAfter: Duration?) -> Duration? {
        let now = Self.wallClockNanoseconds()
        return update(host: host) { record in
            if let retryAfter {
                record.nextStart = max(record.nextStart, now + Self.nanoseconds(retryAfter))
            } else {
                let doubled = record.slowdown > Self.nanoseconds(HostRequestPacer.maximumSlowdown) / 2
                record.slowdown =
                    record.slowdown == 0
                    ? Self.nanoseconds(HostRequestPacer.initialSlowdown)
                    : doubled ? Self.nanoseconds(HostRequestPacer.maximumSlowdown) : record.slowdown * 2
                record.nextStart = max(record.nextStart, now + Self.nanoseconds(base) + record.slowdown)
            }
            return Duration.nanoseconds(record.slowdown)
        }
    }

    /// `host` answered with success: its slowdown shrinks by a fifth (gone below 10 ms). The slowdown now,
    /// or `nil` when the file cannot be used.
    func succeeded(host: String) -> Duration? {
        update(host: host) { record in
            if record.slowdown > 0 {
                record.slowdown = record.slowdown * 4 / 5
                if record.slowdown < 10_000_000 { record.slowdown = 0 }
            }
            return Duration.nanoseconds(record.slowdown)
        }
    }

    /// How long until `host`'s next free start, zero when it is free now, taking nothing; `nil` when the
    /// file cannot be used.
    func delayUntilFree(host: String) -> Duration? {
        let now = Self.wallClockNanoseconds()
        return update(host: host) { record in Duration.nanoseconds(max(0, record.nextStart - now)) }
    }

    /// Runs `change` on `host`'s record under the file's lock and writes the record back when it changed;
    /// `nil` when the file cannot be used. The table's lock is held throughout: the threads of one process
    /// share the open file, whose `flock` does not keep them from each other.
    private func update<T>(host: String, _ change: (inout Record) -> T) -> T? {
        descriptors.withLock { table -> T? in
            var descriptor = table[host] ?? -2
            var kept = true
            if descriptor == -2 {
                descriptor = Self.openSlotFile(Self.fileName(for: host), in: folder)
                // Out of descriptors is this process's state now, not the folder's: the host is tried again.
                if descriptor < 0, errno == EMFILE || errno == ENFILE { return nil }
                kept = descriptor < 0 || table.count < Self.openFileLimit
                if kept { table[host] = descriptor }
            }
            guard descriptor >= 0 else { return nil }
            defer { if !kept { close(descriptor) } }
            guard flock(descriptor, LOCK_EX) == 0 else { return nil }
            defer { _ = flock(descriptor, LOCK_UN) }
            var bytes: (Int64, Int64) = (0, 0)
            let read = withUnsafeMutableBytes(of: &bytes) { pread(descriptor, $0.baseAddress, 16, 0) }
            guard read >= 0 else { return nil }
            let stored = Record(
                nextStart: read >= 8 ? Int64(littleEndian: bytes.0) : 0,
                slowdown: read >= 16 ? min(max(0, Int64(littleEndian: bytes.1)), Self.longestSlowdown) : 0)
            var record = stored
            let result = change(&record)
            if record != stored {
                var out = (record.nextStart.littleEndian, record.slowdown.littleEndian)
                let written = withUnsafeBytes(of: &out) { pwrite(descriptor, $0.baseAddress, 16, 0) }
                guard written == 16 else { return nil }
            }
            return result
        }
    }

    private static func openSlotFile(_ name: String, in folder: String) -> Int32 {
        // O_NOFOLLOW: a link planted in the folder would otherwise have us write where it points.
        let descriptor = open(folder + "/" + name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor < 0, errno == ENOENT else { return descriptor }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
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
