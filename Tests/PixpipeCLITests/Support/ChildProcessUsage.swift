import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a child process ended and what it cost: exit status, wall time and peak resident memory.
struct ChildProcessUsage {
    /// The exit status, or 128 + the signal number when a signal ended it.
    let status: Int32
    /// Wall-clock time from spawn to exit.
    let elapsed: Duration
    /// CPU time (user + system) of the child and its waited-for descendants, from `wait4`: what bounds a
    /// refusal, since the wall clock of a loaded machine also counts other programs' work.
    let cpuTime: Duration
    /// The child's peak resident set size in bytes (`ru_maxrss` from `wait4`).
    let peakResidentBytes: Int
    /// What the child wrote to standard error.
    let errors: String

    /// Whether tests run under a sanitizer (`scripts/test --sanitize` says so): its shadow memory and
    /// slower code make the memory and time bounds meaningless, so callers relax them.
    static let isSanitized = ProcessInfo.processInfo.environment["PIXPIPE_SANITIZER"] != nil

    /// The wall-clock bound beside a CPU-time bound: only a child that hangs or waits reaches it.
    static let hangLimit: Duration = isSanitized ? .seconds(120) : .seconds(15)

    /// What a memory-growth bound adds under a sanitizer: AddressSanitizer keeps up to 256 MB of freed
    /// chunks (with their redzones) resident in quarantine to catch use after free, so a longer run of
    /// the same work ends with a fuller quarantine, not a leak (measured: +275 MB for 10,000 curl
    /// requests, +547 MB for planning 100,000 lines). Leaks themselves are LeakSanitizer's job there.
    static let sanitizerGrowthAllowance = isSanitized ? 700_000_000 : 0

    /// Why a child could not be started.
    struct SpawnError: Error, CustomStringConvertible {
        /// `posix_spawn`'s error number.
        let code: Int32
        /// The executable that was not started.
        let path: String
        var description: String { "cannot spawn \(path): \(String(cString: strerror(code)))" }
    }

    /// GNU time, which reports the peak memory of the one process it runs (`scripts/bootstrap` installs it).
    static let timeCommand = "/usr/bin/time"

    /// Runs `executable` with `arguments` (standard input and output on /dev/null) and measures it.
    ///
    /// The peak memory comes from GNU time, not from our own `wait4`: Linux records the spawning process's
    /// peak RSS into the child's `ru_maxrss` at exec when the child starts from a `vfork`-style spawn, so a
    /// large test process would be charged to the child. GNU time is small, so the child it forks is not.
    static func measure(_ executable: URL, _ arguments: [String]) throws -> ChildProcessUsage {
        let errorFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("pixpipe-child-\(UUID().uuidString).stderr")
        let peakFile = errorFile.appendingPathExtension("peak")
        defer {
            try? FileManager.default.removeItem(at: errorFile)
            try? FileManager.default.removeItem(at: peakFile)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let command = [timeCommand, "-f", "%M", "-o", peakFile.path, executable.path] + arguments
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let clock = ContinuousClock()
        let start = clock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, timeCommand, &actions, nil, argv, environ)
        guard spawned == 0 else { throw SpawnError(code: spawned, path: timeCommand) }

        var rawStatus: Int32 = 0
        var usage = rusage()
        while wait4(pid, &rawStatus, 0, &usage) == -1 && errno == EINTR {}
        let elapsed = clock.now - start
        // The wait status layout: low 7 bits are the terminating signal (0 when it exited normally).
        let signal = rawStatus & 0x7F
        let status = signal == 0 ? (rawStatus >> 8) & 0xFF : 128 + signal
        let errors = WholeFile.text(at: errorFile)
        // GNU time prints the peak in KiB on the last line of its output file.
        let report = WholeFile.text(at: peakFile)
        let peakKiB = report.split(separator: "\n").last.flatMap { Int($0) } ?? Int.max / 1024
        let cpuTime =
            Duration.seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        return ChildProcessUsage(
            status: status, elapsed: elapsed, cpuTime: cpuTime, peakResidentBytes: peakKiB * 1024, errors: errors)
    }
}
