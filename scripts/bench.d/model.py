"""The benchmark's data model: a comparison (a row of the report), its sides and its targets.

A side's command is an argv list. `kind="inner"` sides (pixpipe-bench, pil_ops.py) time the
operation inside the process and print JSON with `seconds_median`; the harness uses that as the
side's time, so interpreter start-up and imports are not counted. `kind="process"` sides are
timed from outside (wall clock of the whole command), like a user running them.

A pixpipe side names `pixpipe_subcommand` when it runs the CLI: the harness runs
`pixpipe SUBCOMMAND --help` first and reports `skipped: pixpipe SUBCOMMAND not built yet` when
that fails. pixpipe-bench sides are skipped when they print {"skipped": ...} or fail with
"not implemented yet".

A target's ratio is peer / pixpipe: above 1 means pixpipe is faster (time) or smaller (memory).
"""

import os
from dataclasses import dataclass, field


@dataclass
class Side:
    name: str
    argv: list
    kind: str = "process"  # "process" or "inner"
    out_dir: str = None  # emptied before every run; its size is reported
    is_pixpipe: bool = False
    pixpipe_subcommand: str = None  # CLI subcommand probed with --help
    requires: tuple = ()  # executables that must exist
    max_runs: int = None  # fewer runs than the others, for a slow peer (img2dataset)
    skip_reason: str = None  # reported as skipped with this reason, not run (a peer too slow for --quick)
    result_subdir: str = None  # where in out_dir the results are, when not at its top
    # For rows with psnr=True: a command writing the same thumbnails as lossless PNG into psnr_dir,
    # run once after the timed runs (untimed), so PSNR measures the resampling, not JPEG quantization.
    psnr_argv: list = None
    psnr_dir: str = None


@dataclass
class Target:
    peer: str
    metric: str  # "time", "memory", "psnr" or "peak_mb"
    threshold: float  # time/memory: minimum ratio peer/pixpipe; psnr: minimum dB; peak_mb: most MB (10^6 bytes)
    text: str
    side: str = "pixpipe"  # the pixpipe side the target is about (a row may have several)


@dataclass
class Comparison:
    name: str
    title: str
    sides: list
    work: dict  # {"megapixels": ..., "files": ..., "bytes": ...} processed by one run
    targets: list = field(default_factory=list)
    needs_server: bool = False
    primary: str = "time"  # the metric the row is about: "time" or "memory"
    expected_files: int = None  # outputs each side must produce (fetch rows)
    psnr: bool = False  # compute PSNR of each side's thumbnails against the float reference
    sources: str = None  # folder of the images thumbnailed (for PSNR)
    throughput: str = "MP/s"  # "MP/s", "files/s" or None
    # Peak memory: "process" is the largest single process (ru_maxrss); "tree" the summed RSS of
    # the process tree, for sides that run several processes at once (pools, xargs -P).
    memory: str = "process"
    note: str = ""
    # At least this many interleaved runs, whatever --runs says: rows of 0.1-0.2 s runs, where a shared
    # 2-core machine's noise moves single runs by 30%, need more than five for a median to mean much.
    min_runs: int = None
    # A row that is not sides run side by side (fetch-scale): runner(comparison, ctx, env, timeout, log)
    # measures it and returns the result the report prints.
    runner: object = None
    # Run the sides in the reverse order on every other run (A B C, C B A, ...), so no side always
    # follows the same neighbour: on a disk, one side's write-back still draining slows the next one.
    alternate: bool = False


def sh(script, *args):
    """argv running a POSIX shell script with positional arguments."""
    return ["sh", "-c", script, "sh", *args]
