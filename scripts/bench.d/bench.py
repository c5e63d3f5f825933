"""The benchmark harness behind scripts/bench (run it through scripts/bench, which sets up the venv).

Builds pixpipe and pixpipe-bench in release, prepares the inputs, starts nginx when a fetch
row is selected, runs every comparison's sides interleaved (A B C A B C ...), and writes
results.json, results.md and chart.png. Exit status: 0 when every side ran or was skipped
for a stated reason, 1 when a side failed, 2 on a harness error.
"""

import argparse
import contextlib
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import comparisons  # noqa: E402
import inputs  # noqa: E402
import quality  # noqa: E402
import report  # noqa: E402
import scale  # noqa: E402
from measure import run_measured  # noqa: E402
from server import Nginx  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
BENCH_DIR = os.path.join(ROOT, ".bench")
RESULT_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bin", ".webp", ".v")


def log(message):
    print(message, flush=True)


class Context:
    """Paths and tools the comparisons' commands refer to."""

    def __init__(self, args, inputs_root, pixpipe, bench_exe, scratch):
        self.quick = args.quick
        self.inputs = inputs_root
        self.work = os.path.join(BENCH_DIR, "work")  # URL lists and logs of every run
        self.scratch = scratch  # what the sides write; emptied between runs
        self.trash = os.path.join(scratch, ".trash")
        self.venv_bin = os.path.dirname(sys.executable)
        self.python = sys.executable
        self.pil_ops = os.path.join(HERE, "pil_ops.py")
        self.pixpipe = pixpipe
        self.bench_exe = bench_exe
        self.lists = {}
        self.psnr_cache = os.path.join(BENCH_DIR, "psnr-reference")  # float references, kept across runs
        self._manifest = inputs.manifest(inputs_root)

    def megapixels(self, relative_paths):
        return inputs.megapixels(self.inputs, relative_paths, self._manifest)

    def list_path(self, kind, fmt, out_dir=None):
        """The path of a URL list for kind ("small" or "photos"), written once nginx is up."""
        path = os.path.join(self.work, "lists", f"{kind}-{fmt}" + (f"-{len(self.lists)}" if fmt == "curl" else ""))
        self.lists[path] = (kind, fmt, out_dir)
        return path

    def write_lists(self, server):
        for path, (kind, fmt, out_dir) in self.lists.items():
            os.makedirs(os.path.dirname(path), exist_ok=True)
            names = sorted(os.listdir(os.path.join(self.inputs, "www", kind)))
            with open(path, "w") as handle:
                for name in names:
                    url = server.url(f"{kind}/{name}")
                    if fmt == "curl":
                        target = "/dev/null" if out_dir == os.devnull else os.path.join(out_dir, name)
                        handle.write(f'url = "{url}"\noutput = "{target}"\n')
                    else:
                        handle.write(url + "\n")


# How the measured binaries are built, as the README tells users to build the tools: release, with the Swift
# runtime linked statically (on Linux it saves about 10 ms of dynamic loading at every start).
RELEASE_BUILD = ["swift", "build", "-c", "release", "--static-swift-stdlib"]


def build_release(product):
    """Builds product in release; returns (binary path, None) or (None, reason)."""
    log(f"build: {' '.join(RELEASE_BUILD)} --product {product}")
    result = subprocess.run(RELEASE_BUILD + ["--product", product], cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        lines = [line for line in (result.stdout + result.stderr).splitlines() if "error" in line]
        return None, f"release build of {product} failed: {(lines or ['(see swift build)'])[0][:200]}"
    bin_path = subprocess.run(
        RELEASE_BUILD + ["--show-bin-path"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    return os.path.join(bin_path, product), None


def tool_versions(pixpipe_reason):
    def first_line(argv, stream="stdout"):
        try:
            result = subprocess.run(argv, capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            return "not installed"
        text = (result.stdout + "\n" + result.stderr).strip()
        # The first line, without curl-style lists of linked libraries.
        return " ".join(text.splitlines()[0].split()[:6]) if text else "unknown"

    versions = {
        "vips": first_line(["vips", "--version"]),
        "libjpeg-turbo (djpeg)": first_line(["sh", "-c", "djpeg -version 2>&1 | head -1"]),
        "netpbm": first_line(["sh", "-c", "pngtopnm -version 2>&1 | grep -i 'netpbm' | head -1"]),
        "curl": first_line(["curl", "--version"]),
        "wget2": first_line(["wget2", "--version"]),
        "aria2c": first_line(["aria2c", "--version"]),
        "nginx": first_line(["nginx", "-v"]),
        "swift": first_line(["swift", "--version"]),
    }
    try:
        import PIL

        versions["Pillow"] = PIL.__version__
    except ImportError:
        versions["Pillow"] = "not installed"
    try:
        from importlib.metadata import version

        versions["img2dataset"] = version("img2dataset")
    except Exception:  # noqa: BLE001 - any failure means "not installed"
        versions["img2dataset"] = "not installed"
    if pixpipe_reason:
        versions["pixpipe"] = pixpipe_reason
    return versions


def machine_description():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{model}, {os.cpu_count()} cores, {memory:.0f} GiB, {platform.system()} {platform.release()}"


def count_results(directory):
    count = 0
    for _, _, names in os.walk(directory):
        count += sum(1 for name in names if name.lower().endswith(RESULT_EXTENSIONS))
    return count


def directory_bytes(directory):
    return sum(os.path.getsize(os.path.join(d, n)) for d, _, names in os.walk(directory) for n in names)


def parse_inner(stdout):
    """The last JSON object printed by an in-process timer, or None."""
    import json

    for line in reversed(stdout.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def precheck(side, ctx, env):
    """None when the side can run, else (status, reason)."""
    if side.skip_reason:
        return "skipped", side.skip_reason
    if side.is_pixpipe and side.pixpipe_subcommand:
        if not ctx.pixpipe:
            return "skipped", f"pixpipe {side.pixpipe_subcommand} not built yet (pixpipe did not build)"
        probe = subprocess.run(
            [ctx.pixpipe, side.pixpipe_subcommand, "--help"], capture_output=True, text=True, env=env, timeout=30
        )
        # A stub CLI exits 0 for anything; a built subcommand's help names it.
        if probe.returncode != 0 or side.pixpipe_subcommand not in (probe.stdout + probe.stderr):
            return "skipped", f"pixpipe {side.pixpipe_subcommand} not built yet"
    elif side.is_pixpipe and not ctx.bench_exe:
        return "skipped", "pixpipe-bench not built"
    for tool in side.requires:
        if not (shutil.which(tool, path=env["PATH"]) or os.access(tool, os.X_OK)):
            hint = " (pip install failed: see .bench/img2dataset-install.log)" if "img2dataset" in tool else ""
            return "skipped", f"{os.path.basename(tool)} is not installed{hint}"
    return None


def run_comparison(comparison, ctx, runs, env, timeout):
    sides = []
    for side in comparison.sides:
        state = {"name": side.name, "kind": side.kind, "status": "ok", "reason": None, "runs": [], "side": side}
        blocked = precheck(side, ctx, env)
        if blocked:
            state["status"], state["reason"] = blocked
        sides.append(state)

    log_dir = os.path.join(ctx.work, comparison.name, "logs")
    os.makedirs(log_dir, exist_ok=True)
    runs = max(runs, comparison.min_runs or 0)
    for run_index in range(runs):
        ordered = sides[::-1] if comparison.alternate and run_index % 2 else sides
        for state in ordered:
            side = state["side"]
            if state["status"] != "ok" or (side.max_runs is not None and run_index >= side.max_runs):
                continue
            if side.out_dir:
                clear_directory(side.out_dir, ctx.trash)
            stem = os.path.join(log_dir, f"{side.name}-{run_index}".replace("/", "_"))
            result = run_measured(side.argv, stem + ".out", stem + ".err", env=env, timeout=timeout)
            record = {
                "wall_s": result.wall,
                "cpu_s": result.cpu,
                "peak_bytes": result.tree_peak_bytes if comparison.memory == "tree" else result.maxrss_bytes,
                "maxrss_bytes": result.maxrss_bytes,
                "tree_peak_bytes": result.tree_peak_bytes,
            }
            if not result.ok:
                reason = result.failure_reason()
                skipped = side.is_pixpipe and "not implemented" in result.stderr
                state["status"] = "skipped" if skipped else "failed"
                # The codecs are stubs until merged: say so briefly (the log has the whole message).
                state["reason"] = f"{os.path.basename(side.argv[0])} {side.argv[1]}: not implemented yet" if skipped else reason
                log(f"  {comparison.name} / {side.name}: {state['status']}: {state['reason']}")
                continue
            if side.kind == "inner":
                parsed = parse_inner(result.stdout)
                if parsed is None or "skipped" in parsed:
                    state["status"] = "skipped" if parsed else "failed"
                    state["reason"] = parsed["skipped"] if parsed else "printed no JSON report"
                    continue
                record["inner_s"] = parsed["seconds_median"]
                if parsed.get("output_bytes") is not None:
                    state["output_bytes"] = parsed["output_bytes"]
            if comparison.expected_files and side.out_dir:
                result_dir = os.path.join(side.out_dir, side.result_subdir or "")
                if count_results(result_dir) == 0:
                    state["status"] = "failed"
                    state["reason"] = f"exited 0 but wrote no outputs in {result_dir}"
                    log(f"  {comparison.name} / {side.name}: failed: {state['reason']}")
                    continue
            state["runs"].append(record)
            log(
                f"  {comparison.name} run {run_index + 1}/{runs} {side.name}: "
                f"{report.fmt_time(record.get('inner_s', record['wall_s']))}, peak {report.fmt_bytes(record['peak_bytes'])}"
            )
    summary = summarize(comparison, sides, ctx, env, timeout)
    shutil.rmtree(ctx.trash, ignore_errors=True)
    for side in comparison.sides:
        if side.out_dir:
            shutil.rmtree(os.path.join(os.path.dirname(os.path.abspath(side.out_dir)), ".trash"), ignore_errors=True)
    return summary


def default_scratch():
    """A folder on tmpfs when there is one with room, else .bench/outputs.

    The sides' outputs are throw-away; on tmpfs, other disk traffic on the machine does not
    enter the numbers and emptying thousands of files between runs is instant.
    """
    shm = "/dev/shm"
    try:
        stats = os.statvfs(shm)
        if stats.f_bavail * stats.f_frsize > 4 * 2**30:
            return os.path.join(shm, f"pixpipe-bench-{os.getuid()}")
    except OSError:
        pass
    return os.path.join(BENCH_DIR, "outputs")


def clear_directory(directory, trash):
    """Leaves directory empty, moving old contents to trash (deleted after the comparison).

    Deleting thousands of just-written files can take seconds and keeps the file system busy;
    a rename is instant, so the next measured run does not share the disk with a deletion.
    """
    if os.path.exists(directory):
        os.makedirs(trash, exist_ok=True)
        if os.stat(trash).st_dev != os.stat(directory).st_dev:
            # A folder on another file system than the scratch (the disk rows): a trash beside it, so the
            # move stays a rename; removed with the scratch's trash after the comparison.
            trash = os.path.join(os.path.dirname(os.path.abspath(directory)), ".trash")
            os.makedirs(trash, exist_ok=True)
        os.rename(directory, os.path.join(trash, f"{len(os.listdir(trash))}-{os.path.basename(directory)}"))
    os.makedirs(directory)


def psnr_pass(comparison, side, ctx, env, timeout):
    """PSNR of the thumbnails side.psnr_argv writes as PNG (one untimed run), or None if it fails.

    The timed runs write JPEG like users do; measuring PSNR on those would mostly measure JPEG
    quantization at quality 85 (about 30-34 dB on these photos whatever the resampler), so each
    side makes the same thumbnails once more as lossless PNG and those are compared.
    """
    clear_directory(side.psnr_dir, ctx.trash)
    stem = os.path.join(ctx.work, comparison.name, "logs", f"{side.name}-psnr")
    result = run_measured(side.psnr_argv, stem + ".out", stem + ".err", env=env, timeout=timeout)
    if not result.ok:
        log(f"  {comparison.name} / {side.name}: PSNR run failed: {result.failure_reason()}")
        return None
    started = time.monotonic()
    psnr = quality.psnr_folder(side.psnr_dir, comparison.sources, ctx.psnr_cache)
    log(f"  {comparison.name} / {side.name}: PSNR of {psnr and psnr['files']} PNG thumbnails "
        f"({time.monotonic() - started:.1f} s)")
    return psnr


def summarize(comparison, sides, ctx, env, timeout):
    work = comparison.work
    results = []
    for state in sides:
        side = state.pop("side")
        runs = state["runs"]
        if state["status"] != "ok" and not runs:
            state.update(time_s=None, cpu_s=None, peak_bytes=None)
            results.append(state)
            continue
        times = [run.get("inner_s", run["wall_s"]) for run in runs]
        state["time_s"] = statistics.median(times)
        state["wall_s"] = statistics.median(run["wall_s"] for run in runs)
        state["cpu_s"] = statistics.median(run["cpu_s"] for run in runs)
        state["peak_bytes"] = int(statistics.median(run["peak_bytes"] for run in runs))
        if comparison.throughput == "MP/s" and work.get("megapixels"):
            state["mp_per_s"] = work["megapixels"] / state["time_s"]
        elif comparison.throughput == "files/s" and work.get("files"):
            state["files_per_s"] = work["files"] / state["time_s"]
        result_dir = os.path.join(side.out_dir, side.result_subdir or "") if side.out_dir else None
        if result_dir and os.path.isdir(result_dir):
            if "output_bytes" not in state and comparison.name.endswith("encode"):
                state["output_bytes"] = directory_bytes(result_dir)
            if comparison.expected_files is not None:
                written = count_results(result_dir)
                if written < comparison.expected_files:
                    state["warning"] = f"only {written} of {comparison.expected_files} outputs written"
            if comparison.psnr and not side.psnr_argv:
                state["psnr"] = quality.psnr_folder(result_dir, comparison.sources, ctx.psnr_cache)
        if comparison.psnr and side.psnr_argv and state["status"] == "ok":
            state["psnr"] = psnr_pass(comparison, side, ctx, env, timeout)
        results.append(state)

    by_name = {state["name"]: state for state in results}
    pixpipe = next((s for s in results if s["name"] == "pixpipe"), None)
    ratios = {}
    if pixpipe and pixpipe.get("time_s"):
        for state in results:
            if state is pixpipe or not state.get("time_s"):
                continue
            ratios[state["name"]] = {
                "time": state["time_s"] / pixpipe["time_s"],
                "memory": state["peak_bytes"] / pixpipe["peak_bytes"] if pixpipe["peak_bytes"] else None,
            }
    targets = [evaluate(target, ratios, by_name) for target in comparison.targets]
    return {
        "name": comparison.name,
        "title": comparison.title,
        "work": work,
        "primary": comparison.primary,
        "note": comparison.note,
        "sides": results,
        "ratios": ratios,
        "targets": targets,
    }


def side_ratio(peer, side, metric):
    """peer / side for time or peak memory, or None when either did not run."""
    key = "time_s" if metric == "time" else "peak_bytes"
    if not peer or not side or not peer.get(key) or not side.get(key):
        return None
    return peer[key] / side[key]


def evaluate(target, ratios, by_name):
    entry = {"text": target.text, "peer": target.peer, "metric": target.metric, "threshold": target.threshold}
    pixpipe = by_name.get("pixpipe")
    if not pixpipe or pixpipe.get("time_s") is None:
        entry["status"] = "not measured (pixpipe skipped)"
        return entry
    if target.metric == "psnr":
        value = (pixpipe.get("psnr") or {}).get("min_db")
        if value is None:
            entry["status"] = "not measured (no thumbnails to compare)"
        else:
            entry["status"] = f"{'met' if value >= target.threshold else 'missed'} (min {value:.2f} dB)"
        return entry
    if target.metric == "peak_mb":
        # An absolute bound (threshold: the most megabytes, 10^6 bytes) on the pixpipe side's peak memory.
        peak = pixpipe.get("peak_bytes")
        if not peak:
            entry["status"] = "not measured (no peak memory)"
        else:
            entry["status"] = f"{'met' if peak <= target.threshold * 1e6 else 'missed'} (peak {peak / 1e6:.1f} MB)"
        return entry
    ratio = ratios.get(target.peer, {}).get(target.metric)
    if target.side != "pixpipe":
        entry["side"] = target.side
        ratio = side_ratio(by_name.get(target.peer), by_name.get(target.side), target.metric)
    if ratio is None:
        entry["status"] = f"not measured ({target.peer} did not run)"
    elif ratio >= target.threshold:
        entry["status"] = f"met (ratio {ratio:.2f}x)"
    else:
        entry["status"] = f"missed by {(target.threshold / ratio - 1) * 100:.1f}% (ratio {ratio:.2f}x)"
    entry["ratio"] = ratio
    return entry


def main():
    parser = argparse.ArgumentParser(prog="scripts/bench", description="Pixpipe vs its peers; see scripts/bench --help")
    parser.add_argument("--quick", action="store_true", help="small inputs, 3 runs, under 2 minutes")
    parser.add_argument("--only", action="append", default=[], help="run comparisons whose name starts with NAME")
    parser.add_argument("--out", default=os.path.join(BENCH_DIR, "results"), help="results folder")
    parser.add_argument("--publish", action="store_true", help="copy results.md and chart.png to docs/bench/")
    parser.add_argument("--runs", type=int, help="interleaved runs per side (default 3 quick, 5 full)")
    parser.add_argument("--skip-build", action="store_true", help="use the existing release binaries")
    parser.add_argument("--outputs-dir", help="where the sides write (default: tmpfs /dev/shm when it has room)")
    parser.add_argument("--keep-outputs", action="store_true", help="leave the sides' last outputs for inspection")
    parser.add_argument("--pixpipe", help="use this pixpipe executable instead of building one")
    parser.add_argument("--pixpipe-bench", help="use this pixpipe-bench executable instead of building one")
    args = parser.parse_args()
    started = time.monotonic()
    mode = "quick" if args.quick else "full"
    runs = args.runs or (3 if args.quick else 5)
    only = [name for value in args.only for name in value.split(",") if name]

    corpora = os.environ.get("PIXPIPE_CORPORA") or os.path.join(ROOT, "..", "shared", "corpora")
    kodak = os.path.join(corpora, "kodak")
    if not os.path.isdir(kodak):
        log(f"bench: no Kodak photos at {kodak}; set PIXPIPE_CORPORA")
        return 2

    pixpipe, pixpipe_reason = (None, None)
    bench_exe, bench_reason = (None, None)
    if args.skip_build:
        bin_path = subprocess.run(
            RELEASE_BUILD + ["--show-bin-path"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        pixpipe = os.path.join(bin_path, "pixpipe") if os.path.exists(os.path.join(bin_path, "pixpipe")) else None
        bench_exe = os.path.join(bin_path, "pixpipe-bench")
        bench_exe = bench_exe if os.path.exists(bench_exe) else None
    else:
        if not args.pixpipe:
            pixpipe, pixpipe_reason = build_release("pixpipe")
        if not args.pixpipe_bench:
            bench_exe, bench_reason = build_release("pixpipe-bench")
        build_release("PixpipeRequestLoop")
    pixpipe = os.path.abspath(args.pixpipe) if args.pixpipe else pixpipe
    bench_exe = os.path.abspath(args.pixpipe_bench) if args.pixpipe_bench else bench_exe
    for reason in (pixpipe_reason, bench_reason):
        if reason:
            log(f"build: {reason}")

    inputs_root = inputs.prepare(BENCH_DIR, kodak, mode, log=log)
    scale.prepare_tiny(inputs_root, log)
    log(f"inputs: {inputs_root}")
    inputs.warm_page_cache(inputs_root)

    scratch = args.outputs_dir or default_scratch()
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    log(f"outputs of the sides: {scratch}")
    ctx = Context(args, inputs_root, pixpipe, bench_exe, scratch)
    # The transport row's client: built beside pixpipe, used when present.
    loop = os.path.join(os.path.dirname(pixpipe or ""), "PixpipeRequestLoop") if pixpipe else None
    ctx.request_loop = loop if loop and os.path.exists(loop) else None
    every = comparisons.build(ctx)
    names = {c.name for c in every}
    # A full name selects that comparison alone; anything else is a prefix.
    selected = [
        c for c in every if not only or any(c.name == n if n in names else c.name.startswith(n) for n in only)
    ]
    if not selected:
        log(f"bench: no comparison matches {only}")
        return 2

    env = dict(os.environ)
    env["PATH"] = ctx.venv_bin + os.pathsep + env.get("PATH", "")
    env["NO_ALBUMENTATIONS_UPDATE"] = "1"  # img2dataset imports albumentations, which phones home
    env["LC_ALL"] = "C"
    timeout = 180 if args.quick else 900

    results = []
    with contextlib.ExitStack() as stack:
        if not args.keep_outputs:
            stack.callback(shutil.rmtree, scratch, True)
            # The disk rows (fetch-disk) write under the working folder, not the scratch.
            stack.callback(shutil.rmtree, os.path.join(ctx.work, "fetch-disk", "out"), True)
        if any(c.needs_server for c in selected):
            server = stack.enter_context(Nginx(BENCH_DIR, os.path.join(inputs_root, "www")))
            log(f"nginx: serving {inputs_root}/www on 127.0.0.1:{server.port}")
            ctx.write_lists(server)
            ctx.server = server
        for comparison in selected:
            log(f"\n-- {comparison.name}: {comparison.title}")
            comparison_started = time.monotonic()
            if comparison.runner:
                results.append(comparison.runner(comparison, ctx, env, timeout * 4, log))
            else:
                results.append(run_comparison(comparison, ctx, runs, env, timeout))
            results[-1]["elapsed_s"] = round(time.monotonic() - comparison_started, 1)
            log(f"  ({results[-1]['elapsed_s']:.0f} s)")

    meta = {
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "machine": machine_description(),
        "mode": mode,
        "runs": runs,
        "elapsed_s": round(time.monotonic() - started, 1),
        "tools": tool_versions(pixpipe_reason),
    }
    for result in results:
        report.print_comparison(result)
    report.print_legend()

    os.makedirs(args.out, exist_ok=True)
    report.write_json(os.path.join(args.out, "results.json"), meta, results)
    report.write_markdown(os.path.join(args.out, "results.md"), meta, results)
    report.write_chart(os.path.join(args.out, "chart.png"), meta, results)
    log(f"\nwrote {args.out}/results.json, results.md, chart.png ({time.monotonic() - started:.0f} s in all)")
    if args.publish:
        docs = os.path.join(ROOT, "docs", "bench")
        os.makedirs(docs, exist_ok=True)
        for name in ("results.md", "chart.png"):
            shutil.copy(os.path.join(args.out, name), os.path.join(docs, name))
        log(f"published results.md and chart.png to {docs}")
    failed = [f"{r['name']}/{s['name']}" for r in results for s in r["sides"] if s["status"] == "failed"]
    if failed:
        log(f"failed sides: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
