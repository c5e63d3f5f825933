"""The fetch-rate row: how close `pixpipe fetch --rate` keeps each host to the rate asked, from both sides.

Not a side-by-side comparison: pixpipe alone, against its own target. The tests prove the upper side
exactly (a host never gets a request sooner than the pacer allows), which holds on any machine; how
close to the asked rate a run gets depends on the machine, so that side is measured here rather than
asserted in a test.

- The list: N URLs per host on two host names of the bench's nginx, `127.0.0.1` and `localhost`,
  interleaved, under `/rate/NNNNNN-tKKK.jpg` (rewritten to the 300 tiny JPEGs of the fetch-scale row).
  nginx logs the arrival time ($msec) and host of every request under `/rate/` only.
- "one process": `pixpipe fetch LIST --rate 20/s --rate localhost=10/s`, so each host has its own rate.
- "2 shards at once": the same list with `--rate 20/s --rate localhost=10/s --shard I/2` for I = 0, 1
  started together into one folder: the shards keep each host's rate together.
- A host's achieved rate is (requests - 1) / (last arrival - first arrival), from the server's log.

Target: every host within 10% of its asked rate, above and below, in both runs.
"""

import os
import subprocess

from measure import run_measured
from model import Comparison
from scale import TINY_FILES, check_manifest, row_result, skipped_side

RATES = {"127.0.0.1": 20.0, "localhost": 10.0}
TOLERANCE = 0.10


def per_host_count(quick):
    return 40 if quick else 150


def write_list(path, port, count):
    """count URLs per host, interleaved; returns every URL written."""
    urls = []
    for index in range(count):
        for host in RATES:
            urls.append(f"http://{host}:{port}/rate/{len(urls):06d}-t{len(urls) % TINY_FILES:03d}.jpg")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write("\n".join(urls) + "\n")
    return urls


def read_arrivals(log_path, start_offset):
    """host -> sorted arrival times of the requests logged after start_offset bytes."""
    arrivals = {}
    with open(log_path, "rb") as handle:
        handle.seek(start_offset)
        for line in handle.read().decode(errors="replace").splitlines():
            parts = line.split()
            if len(parts) != 2:
                continue
            try:
                moment = float(parts[0])
            except ValueError:
                continue
            arrivals.setdefault(parts[1], []).append(moment)
    return {host: sorted(times) for host, times in arrivals.items()}


def achieved(times):
    if len(times) < 2 or times[-1] <= times[0]:
        return None
    return (len(times) - 1) / (times[-1] - times[0])


def run_row(comparison, ctx, env, timeout, log):
    """Runs each case once: each is a few seconds of paced requests, limited by the rate, not the machine."""
    count = comparison.work["files"] // len(RATES)
    if not ctx.pixpipe:
        return row_result(comparison, [skipped_side("pixpipe did not build")], [])
    server = ctx.server
    access_log = server.rate_log_path()
    list_path = os.path.join(ctx.work, "lists", f"rate-{count}.txt")
    urls = write_list(list_path, server.port, count)
    log_dir = os.path.join(ctx.work, comparison.name, "logs")
    os.makedirs(log_dir, exist_ok=True)
    rate_options = ["--rate", f"{RATES['127.0.0.1']:g}/s", "--rate", f"localhost={RATES['localhost']:g}/s"]
    base = [ctx.pixpipe, "fetch", list_path, "--concurrency", "8", *rate_options]
    sides = []
    targets = []

    cases = [
        ("one process", lambda out: base + ["--out", out]),
        ("2 shards at once", lambda out: ["sh", "-c",
                                          'pids=; for i in 0 1; do "$@" --shard "$i/2" > "$LOGS/shard-$i.out" '
                                          '2> "$LOGS/shard-$i.err" & pids="$pids $!"; done; status=0; '
                                          'for pid in $pids; do wait "$pid" || status=1; done; exit $status',
                                          "sh", *base, "--out", out]),
    ]
    for name, argv_for in cases:
        out = os.path.join(ctx.scratch, comparison.name, name.replace(" ", "-"))
        subprocess.run(["rm", "-rf", out], check=False)
        os.makedirs(out, exist_ok=True)
        offset = os.path.getsize(access_log) if os.path.exists(access_log) else 0
        stem = os.path.join(log_dir, name.replace(" ", "_"))
        result = run_measured(argv_for(out), stem + ".out", stem + ".err", env=dict(env, LOGS=log_dir),
                              timeout=timeout)
        arrivals = read_arrivals(access_log, offset) if os.path.exists(access_log) else {}
        problems = check_manifest(os.path.join(out, "manifest.jsonl"), urls, out)
        per_host = {}
        for host, asked in RATES.items():
            rate = achieved(arrivals.get(host, []))
            per_host[host] = {"asked": asked, "requests": len(arrivals.get(host, [])),
                              "achieved": None if rate is None else round(rate, 2)}
            within = rate is not None and abs(rate - asked) <= TOLERANCE * asked
            shown = "no requests logged" if rate is None else f"{rate:.2f}/s of {asked:g}/s ({rate / asked:.3f})"
            targets.append({"text": f"{name}: {host} within 10% of its rate", "peer": "pixpipe", "metric": "rate",
                            "threshold": TOLERANCE,
                            "status": f"{'met' if within else 'missed'} ({shown})"})
        side = {"name": f"pixpipe, {name}", "kind": "process", "status": "ok" if result.ok else "failed",
                "reason": None if result.ok else result.failure_reason(),
                "runs": [{"wall_s": result.wall, "cpu_s": result.cpu, "peak_bytes": result.tree_peak_bytes}],
                "time_s": result.wall, "wall_s": result.wall, "cpu_s": result.cpu,
                "peak_bytes": result.tree_peak_bytes, "hosts": per_host,
                "consistency": "; ".join(problems) or "every URL once, every file present"}
        if problems:
            side["warning"] = side["consistency"]
        log(f"  {comparison.name} / {name}: {result.wall:.2f} s; "
            + ", ".join(f"{host} {info['achieved']}/s of {info['asked']:g}/s" for host, info in per_host.items())
            + f"; {side['consistency']}")
        sides.append(side)
        subprocess.run(["rm", "-rf", out], check=False)
    return row_result(comparison, sides, targets)


def comparison(ctx):
    """The row's entry in the table (the harness calls run_row for it instead of running sides)."""
    count = per_host_count(ctx.quick)
    return Comparison(
        name="fetch-rate",
        title=f"fetch --rate: {count} tiny JPEGs from each of two hosts at 20/s and 10/s; one process, 2 shards",
        sides=[],
        work={"files": 2 * count},
        needs_server=True,
        throughput=None,
        runner=run_row,
        note=("Rates from nginx's log of each request's arrival ($msec): (requests - 1) over the time from the "
              "first to the last. 127.0.0.1 and localhost are two hosts to pixpipe (the same nginx). One run of "
              "each case; the shards share each host's rate through the output folder."),
    )
