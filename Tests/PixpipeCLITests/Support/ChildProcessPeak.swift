import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs an executable as a child process and measures that child's own peak memory.
///
/// The peak is the child's `VmHWM`, sampled from `/proc/<pid>/status` while it runs. `wait4`'s `ru_maxrss`
/// cannot be used: on Linux, `exec` folds the high-water mark of the memory it replaces into the child's
/// figure, and `posix_spawn` (vfork semantics) runs until `exec` in this test process's memory, so a child
/// spawned by a 400 MB parent reports 400 MB whatever it does (checked: `/bin/true` reported 423,204 KB).
/// The samples are a sampling, not a wait for a result; the high-water mark only grows, so a late
/// sample sees everything before it.
enum ChildProcessPeak {
    /// How one measured run ended.
    struct Result {
        /// The exit status (or -1 when the child could not be spawned).
        let status: Int32
        /// The child's peak resident set size in bytes (0 when never sampled).
        let peakBytes: Int
        /// The wall-clock duration of the run.
        let duration: Duration

        /// The peak in MiB, for messages.
        var peakMiB: Int { peakBytes / 1_048_576 }
    }

    /// Runs `executable` with `arguments`, standard output and error sent to /dev/null.
    static func run(_ executable: String, _ arguments: [String]) -> Result {
        let start = ContinuousClock.now
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else {
            return Result(status: -1, peakBytes: 0, duration: .zero)
        }
        var peak = 0
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            peak = max(peak, highWaterMark(of: pid))
            usleep(2000)
        }
        return Result(status: (status >> 8) & 0xFF, peakBytes: peak, duration: ContinuousClock.now - start)
    }

    /// The `VmHWM` of process `pid` in bytes, or 0 when it cannot be read (the process has just exited).
    private static func highWaterMark(of pid: pid_t) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }
}
