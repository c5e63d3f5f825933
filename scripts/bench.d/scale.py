"""The fetch-scale row: one long list, its resumed rerun, and 4 shards at once.

Not a side-by-side comparison: pixpipe alone, against its own targets.

- The list: N URLs (200,000; 20,000 with --quick) `/scale/NNNNNN-tKKK.jpg` on the bench's nginx, which
  rewrites them to 300 tiny JPEGs (`www/tiny/tKKK.jpg`, 64x48, about 1.5 KB), so the network and the disk
  are not the limit and every item has its own name (no collision suffixes).
- "one run": `pixpipe fetch LIST --out DIR` (32 connections, verification and durability on). A watcher
  thread follows the manifest as it grows and notes when it passes each tenth of N lines; the rate of a
  tenth is N/10 over the time it took, the first tenth counted from the first line (start-up is not in it).
- "resumed, all done": the same command again over the complete folder: every item is skipped
  (already-done), so its wall time is what a resumed run spends before it could start its first new
  transfer: reading the 200,000-line manifest, reading the list, deciding every skip.
- "4 shards at once": `--shard I/4` for I = 0..3 started together into one folder, as a job runner on one
  machine would; afterwards the manifest must hold every URL exactly once, every line whole JSON, every
  stored file present.

Targets: last tenth >= 90% of the first tenth's rate; peak RSS < 100 MB; resumed run < 3 s; the shards'
manifest consistent.
"""

import json
import os
import random
import subprocess
import threading
import time

from measure import run_measured
from model import Comparison

TINY_VERSION = "t1"
TINY_FILES = 300
TINY_SIZE = (64, 48)


def url_count(quick):
    return 20_000 if quick else 200_000


def prepare_tiny(root, log):
    """www/tiny/t000.jpg ... t299.jpg: small crops of the 30 KB inputs, made once per TINY_VERSION."""
    from PIL import Image

    folder = os.path.join(root, "www", "tiny")
    marker = os.path.join(folder, f".complete-{TINY_VERSION}")
    if os.path.exists(marker):
        return folder
    os.makedirs(folder, exist_ok=True)
    log(f"inputs: {TINY_FILES} tiny JPEGs ({TINY_SIZE[0]}x{TINY_SIZE[1]}) for fetch-scale")
    sources = sorted(os.listdir(os.path.join(root, "www", "small")))
    generator = random.Random(18)
    for index in range(TINY_FILES):
        with Image.open(os.path.join(root, "www", "small", sources[index % len(sources)])) as image:
            image = image.convert("RGB")
            left = generator.randint(0, image.width - TINY_SIZE[0])
            top = generator.randint(0, image.height - TINY_SIZE[1])
            crop = image.crop((left, top, left + TINY_SIZE[0], top + TINY_SIZE[1]))
            crop.save(os.path.join(folder, f"t{index:03d}.jpg"), "JPEG", quality=85)
    open(marker, "w").close()
    return folder


def write_list(path, server, count):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        for index in range(count):
            handle.write(server.url(f"scale/{index:06d}-t{index % TINY_FILES:03d}.jpg") + "\n")


class ManifestWatcher(threading.Thread):
    """Follows a growing manifest; notes the time (perf_counter) of the first line and of each tenth passed."""

    def __init__(self, path, total, interval=0.05):
        super().__init__(daemon=True)
        self.path = path
        self.total = total
        self.interval = interval
        self.lines = 0
        self.first_line = None
        self.marks = {}  # tenth (1..10) -> time the manifest reached tenth * total / 10 lines
        self.stopped = threading.Event()

    def run(self):
        offset = 0
        while True:
            stopping = self.stopped.is_set()
            try:
                with open(self.path, "rb") as handle:
                    handle.seek(offset)
                    data = handle.read()
            except OSError:
                data = b""
            now = time.perf_counter()
            if data:
                offset += len(data)
                self.lines += data.count(b"\n")
                if self.first_line is None and self.lines:
                    self.first_line = now
                for tenth in range(1, 11):
                    if tenth not in self.marks and self.lines >= tenth * self.total // 10:
                        self.marks[tenth] = now
            if stopping:
                return
            self.stopped.wait(self.interval)

    def tenth_rates(self):
        """Items per second in each tenth, or None where the manifest never got that far."""
        step = self.total / 10
        rates = []
        previous = self.first_line
        for tenth in range(1, 11):
            mark = self.marks.get(tenth)
            if mark is None or previous is None:
                rates.append(None)
                previous = None
                continue
            # The first tenth starts at the first line, so it holds one line fewer.
            items = step - 1 if tenth == 1 else step
            rates.append(items / max(mark - previous, 1e-3))
            previous = mark
        return rates


def check_manifest(path, urls, out_dir):
    """Problems with a finished manifest: torn lines, URLs missing or recorded twice, files missing."""
    problems = []
    seen = {}
    torn = 0
    if not os.path.exists(path):
        return ["no manifest"]
    with open(path, "rb") as handle:
        data = handle.read()
    if data and not data.endswith(b"\n"):
        problems.append("the manifest does not end with a line feed")
    for line in data.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            torn += 1
            continue
        seen.setdefault(record.get("url"), []).append(record)
    if torn:
        problems.append(f"{torn} lines are not whole JSON")
    twice = sum(1 for records in seen.values() if len(records) > 1)
    if twice:
        problems.append(f"{twice} URLs recorded more than once")
    missing = sum(1 for url in urls if url not in seen)
    if missing:
        problems.append(f"{missing} URLs not recorded")
    not_ok = sum(1 for records in seen.values() if records[-1].get("status") != "ok")
    if not_ok:
        problems.append(f"{not_ok} URLs not ok")
    names = [records[-1].get("name") for records in seen.values() if records[-1].get("status") == "ok"]
    if len(set(names)) != len(names):
        problems.append(f"{len(names) - len(set(names))} names recorded for two URLs")
    absent = sum(1 for name in names if not os.path.exists(os.path.join(out_dir, name)))
    if absent:
        problems.append(f"{absent} recorded files missing")
    return problems


def _status(met, value):
    return f"{'met' if met else 'missed'} ({value})"


def skipped_side(reason):
    """A pixpipe side that did not run, for the rows that run pixpipe alone."""
    return {"name": "pixpipe", "kind": "process", "status": "skipped", "reason": reason,
            "runs": [], "time_s": None, "cpu_s": None, "peak_bytes": None}


def row_result(comparison, sides, targets):
    """The result of a row that runs pixpipe alone: its sides and targets, no ratios."""
    return {"name": comparison.name, "title": comparison.title, "work": comparison.work,
            "primary": comparison.primary, "note": comparison.note, "sides": sides, "ratios": {},
            "targets": targets}


def run_row(comparison, ctx, env, timeout, log):
    """Runs the row once (it is long: the interleaving of the other rows buys nothing here)."""
    count = comparison.work["files"]
    if not ctx.pixpipe:
        return row_result(comparison, [skipped_side("pixpipe did not build")], [])
    server = ctx.server
    list_path = os.path.join(ctx.work, "lists", f"scale-{count}.txt")
    write_list(list_path, server, count)
    with open(list_path) as handle:
        urls = handle.read().split()
    log_dir = os.path.join(ctx.work, comparison.name, "logs")
    os.makedirs(log_dir, exist_ok=True)
    base = [ctx.pixpipe, "fetch", list_path, "--concurrency", "32", "--per-host", "32"]
    one = os.path.join(ctx.scratch, comparison.name, "one")
    sharded = os.path.join(ctx.scratch, comparison.name, "shards")
    sides = []
    targets = []

    def measured(name, argv, out_dir, watch):
        watcher = ManifestWatcher(os.path.join(out_dir, "manifest.jsonl"), count) if watch else None
        if watcher:
            watcher.start()
        stem = os.path.join(log_dir, name.replace(" ", "_").replace("/", "_"))
        result = run_measured(argv, stem + ".out", stem + ".err", env=env, timeout=timeout)
        if watcher:
            watcher.stopped.set()
            watcher.join()
        side = {"name": name, "kind": "process", "status": "ok" if result.ok else "failed", "reason": None,
                "runs": [{"wall_s": result.wall, "cpu_s": result.cpu, "peak_bytes": result.maxrss_bytes,
                          "tree_peak_bytes": result.tree_peak_bytes}],
                "time_s": result.wall, "wall_s": result.wall, "cpu_s": result.cpu,
                "peak_bytes": result.maxrss_bytes}
        if not result.ok:
            side["reason"] = result.failure_reason()
        log(f"  {comparison.name} / {name}: {result.wall:.2f} s, CPU {result.cpu:.2f} s, "
            f"peak {result.maxrss_bytes / 1e6:.0f} MB{'' if result.ok else ', ' + side['reason']}")
        return side, watcher

    # One process over the whole list.
    os.makedirs(one, exist_ok=True)
    side, watcher = measured("pixpipe", base + ["--out", one], one, watch=True)
    side["files_per_s"] = count / side["time_s"]
    rates = watcher.tenth_rates()
    side["tenth_rates"] = [None if rate is None else round(rate, 1) for rate in rates]
    problems = check_manifest(os.path.join(one, "manifest.jsonl"), urls, one)
    if problems:
        side["warning"] = "; ".join(problems)
    sides.append(side)
    log(f"  {comparison.name} / pixpipe: items/s per tenth: {side['tenth_rates']}")
    if rates[0] and rates[-1]:
        ratio = rates[-1] / rates[0]
        side["last_over_first"] = round(ratio, 3)
        targets.append({"text": "last tenth at least 90% of the first tenth's rate", "peer": "pixpipe",
                        "metric": "scale", "threshold": 0.9,
                        "status": _status(ratio >= 0.9, f"{rates[-1]:.0f} / {rates[0]:.0f} items/s = {ratio:.2f}")})
    peak = side["peak_bytes"]
    targets.append({"text": "peak RSS under 100 MB", "peer": "pixpipe", "metric": "scale", "threshold": 100e6,
                    "status": _status(peak < 100e6, f"{peak / 1e6:.0f} MB")})

    # The same again: everything is done, so the whole run is the resumed start-up.
    resumed, _ = measured("pixpipe resumed, all done", base + ["--out", one], one, watch=False)
    sides.append(resumed)
    targets.append({"text": f"a resumed run over the {count:,}-line manifest in under 3 s", "peer": "pixpipe",
                    "metric": "scale", "threshold": 3.0,
                    "status": _status(resumed["time_s"] < 3.0 and resumed["status"] == "ok",
                                      f"{resumed['time_s']:.2f} s")})
    # Leave the tmpfs to the shards (200,000 files are about 800 MB of pages).
    clear(one, ctx)

    # Four shards at once into one folder.
    os.makedirs(sharded, exist_ok=True)
    watcher = ManifestWatcher(os.path.join(sharded, "manifest.jsonl"), count)
    watcher.start()
    shard_argv = ["sh", "-c",
                  'pids=; for i in 0 1 2 3; do "$@" --shard "$i/4" > "$LOGS/shard-$i.out" 2> "$LOGS/shard-$i.err" & '
                  'pids="$pids $!"; done; status=0; for pid in $pids; do wait "$pid" || status=1; done; exit $status',
                  "sh", *base, "--out", sharded]
    shard_env = dict(env, LOGS=log_dir)
    stem = os.path.join(log_dir, "shards")
    result = run_measured(shard_argv, stem + ".out", stem + ".err", env=shard_env, timeout=timeout)
    watcher.stopped.set()
    watcher.join()
    shards = {"name": "pixpipe, 4 shards at once", "kind": "process", "status": "ok" if result.ok else "failed",
              "reason": None if result.ok else result.failure_reason(),
              "runs": [{"wall_s": result.wall, "cpu_s": result.cpu, "peak_bytes": result.tree_peak_bytes}],
              "time_s": result.wall, "wall_s": result.wall, "cpu_s": result.cpu,
              "peak_bytes": result.tree_peak_bytes, "files_per_s": count / result.wall}
    if not result.ok:
        errors = []
        for index in range(4):
            with open(os.path.join(log_dir, f"shard-{index}.err"), errors="replace") as handle:
                lines = [line for line in handle.read().splitlines() if line.strip()]
            if lines:
                errors.append(f"shard {index}: {lines[-1][:200]}")
        shards["reason"] = "; ".join(errors) or shards["reason"]
    shard_rates = watcher.tenth_rates()
    shards["tenth_rates"] = [None if rate is None else round(rate, 1) for rate in shard_rates]
    problems = check_manifest(os.path.join(sharded, "manifest.jsonl"), urls, sharded)
    shards["consistency"] = "; ".join(problems) or "every URL once, every line whole, every file present"
    log(f"  {comparison.name} / 4 shards: {result.wall:.2f} s, summed peak {result.tree_peak_bytes / 1e6:.0f} MB, "
        f"{shards['consistency']}; items/s per tenth: {shards['tenth_rates']}")
    sides.append(shards)
    targets.append({"text": "4 shards at once end in one consistent manifest", "peer": "pixpipe", "metric": "scale",
                    "threshold": 0, "status": _status(not problems and result.ok, shards["consistency"])})
    clear(sharded, ctx)
    return row_result(comparison, sides, targets)


def clear(directory, ctx):
    subprocess.run(["rm", "-rf", directory], check=False)


def comparison(ctx):
    """The row's entry in the table (the harness calls run_row for it instead of running sides)."""
    count = url_count(ctx.quick)
    return Comparison(
        name="fetch-scale",
        title=f"fetch {count:,} URLs of tiny JPEGs from nginx; resumed; 4 shards at once",
        sides=[],
        work={"files": count},
        needs_server=True,
        throughput="files/s",
        runner=run_row,
        note=("One run of each (the row is long). The list names 300 tiny JPEGs (64x48, ~1.5 KB) under "
              f"{count:,} URL paths; 32 connections, verification and durability on. Tenth rates come from "
              "the manifest's growth (first tenth counted from the first line); 'resumed, all done' reruns "
              "the list over its complete manifest, so everything is skipped and its wall time is the resumed "
              "start-up; the shards' peak memory is the sum of the four processes."),
    )
