"""Runs one command and measures it: wall time, CPU time and peak memory of the child.

Wall time is measured here; CPU time (user + sys) comes from os.wait4 on the child, which on
Linux includes every descendant the child waited for (a shell loop's djpeg processes, xargs'
workers).

Peak memory of the largest single process (ru_maxrss) is read through GNU time
(`/usr/bin/time -f %M`), not from our own wait4: Linux carries a process's high-water RSS
across fork and exec, so a child forked from this (large) Python process would report the
harness's own memory. GNU time is small, so its children start from a clean slate.

For process pools and parallel xargs, a sampler thread also sums the RSS of the live process
tree (below the GNU time wrapper) every 50 ms: `tree_peak_bytes`. It counts pages shared
between forked processes more than once, so it is an upper bound, and it can miss peaks
shorter than 50 ms.
"""

import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass

PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


@dataclass
class RunResult:
    """What one run of one command cost, and what it printed."""

    wall: float
    cpu: float
    maxrss_bytes: int
    tree_peak_bytes: int
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool = False

    @property
    def ok(self):
        return self.returncode == 0 and not self.timed_out

    def failure_reason(self):
        if self.timed_out:
            return "timed out"
        lines = [line for line in self.stderr.strip().splitlines() if line.strip()]
        tail = lines[-1] if lines else "(no message)"
        return f"exit status {self.returncode}: {tail[:300]}"


def _children(pid):
    """Direct children of pid, from /proc/PID/task/*/children."""
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found.extend(int(child) for child in handle.read().split())
    except OSError:
        pass
    return found


def _tree_rss_bytes(root, include_root=True):
    """The summed resident set of root (unless include_root is false) and all its live descendants."""
    total = 0
    pending = [root] if include_root else _children(root)
    seen = set()
    while pending:
        pid = pending.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/statm") as handle:
                total += int(handle.read().split()[1]) * PAGE_SIZE
        except (OSError, IndexError, ValueError):
            continue
        pending.extend(_children(pid))
    return total


class _TreeSampler(threading.Thread):
    """Samples the process tree's RSS until stopped; keeps the peak."""

    def __init__(self, pid, include_root, interval=0.05):
        super().__init__(daemon=True)
        self.pid = pid
        self.include_root = include_root
        self.interval = interval
        self.peak = 0
        self.stopped = threading.Event()

    def run(self):
        while not self.stopped.is_set():
            self.peak = max(self.peak, _tree_rss_bytes(self.pid, self.include_root))
            self.stopped.wait(self.interval)


GNU_TIME = "/usr/bin/time"


def run_measured(argv, stdout_path, stderr_path, cwd=None, env=None, timeout=600):
    """Runs argv to completion (or kills its process group at timeout) and measures it."""
    time_path = stdout_path + ".time"
    wrapped = os.access(GNU_TIME, os.X_OK)
    if wrapped:
        argv = [GNU_TIME, "-f", "%M", "-o", time_path, "--", *argv]
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        start = time.perf_counter()
        process = subprocess.Popen(
            argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=cwd, env=env, start_new_session=True
        )
        sampler = _TreeSampler(process.pid, include_root=not wrapped)
        sampler.start()
        timed_out = threading.Event()

        def kill_on_timeout():
            timed_out.set()
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        watchdog = threading.Timer(timeout, kill_on_timeout)
        watchdog.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            wall = time.perf_counter() - start
            watchdog.cancel()
            sampler.stopped.set()
            sampler.join()
        # wait4 reaped the child; tell Popen so it does not try again.
        process.returncode = os.waitstatus_to_exitcode(status)
    with open(stdout_path, errors="replace") as handle:
        stdout = handle.read()
    with open(stderr_path, errors="replace") as handle:
        stderr = handle.read()
    maxrss_kib = usage.ru_maxrss  # inflated by this process's own size; see the module comment
    if wrapped:
        try:
            with open(time_path) as handle:
                # GNU time writes "Command exited with non-zero status N" first on failure.
                maxrss_kib = int(handle.read().strip().splitlines()[-1])
        except (OSError, ValueError, IndexError):
            pass
    return RunResult(
        wall=wall,
        cpu=usage.ru_utime + usage.ru_stime,
        maxrss_bytes=maxrss_kib * 1024,
        tree_peak_bytes=sampler.peak,
        returncode=process.returncode,
        stdout=stdout,
        stderr=stderr,
        timed_out=timed_out.is_set(),
    )
