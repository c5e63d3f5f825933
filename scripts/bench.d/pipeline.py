"""The image pipeline rows: pixpipe alone, through `pixpipe-bench pipeline-*`.

No peer runs on Linux (Nuke and Kingfisher are Apple-only), so the row reports the pipeline's own
figures, each subcommand run once as a process (its own timer inside, its in-process HTTP server on
127.0.0.1 serving the bench's photos):

- "memory hits": `image(for:)` of a 256-pixel thumbnail already in the memory cache, 100,000 times
  (20,000 with --quick); throughput is hits per second (and `cachedImage(for:)`'s in the details).
- "disk-cache hit" and "fetch + decode": per image, a pipeline with an empty memory cache over a disk
  cache holding every photo, against one without a disk cache (a local fetch and a decode).
- "mixed": 10,000 requests (2,000 with --quick) over 1,000 URLs (200) drawn from a Zipf distribution,
  three thumbnail sizes (64, 128, 256), 64 in flight, memory and disk caches starting empty; the least
  possible work is one request per distinct URL and one decode per distinct URL and size.
"""

import json
import os

from measure import run_measured
from model import Comparison

PHOTOS = 40  # the photos served (768x512 and 1536x1024), URLs map onto them round-robin


def _side(name, result, report, time_s, per_s=None, details=None):
    side = {"name": name, "kind": "inner", "status": "ok" if result.ok and report else "failed",
            "reason": None if result.ok and report else result.failure_reason(),
            "runs": [{"wall_s": result.wall, "cpu_s": result.cpu, "peak_bytes": result.maxrss_bytes}],
            "time_s": time_s, "cpu_s": result.cpu, "peak_bytes": result.maxrss_bytes}
    if per_s is not None:
        side["files_per_s"] = per_s
    if details:
        side["details"] = details
    return side


def run_row(comparison, ctx, env, timeout, log):
    """Runs the three subcommands once each and reports them as sides of one row."""
    result_row = {"name": comparison.name, "title": comparison.title, "work": comparison.work,
                  "primary": comparison.primary, "note": comparison.note, "sides": [], "ratios": {},
                  "targets": []}
    if not ctx.bench_exe:
        result_row["sides"].append({"name": "pixpipe", "kind": "inner", "status": "skipped",
                                    "reason": "pixpipe-bench not built", "runs": [], "time_s": None,
                                    "cpu_s": None, "peak_bytes": None})
        return result_row
    folder = os.path.join(ctx.inputs, "www", "photos")
    photos = sorted(os.path.join(folder, name) for name in os.listdir(folder))[:PHOTOS]
    log_dir = os.path.join(ctx.work, comparison.name, "logs")
    os.makedirs(log_dir, exist_ok=True)
    quick = ctx.quick
    inner = ["--warmup", "1", "--repeat", "1" if quick else "3"]

    def run(name, argv):
        stem = os.path.join(log_dir, name)
        result = run_measured([ctx.bench_exe] + argv + inner, stem + ".out", stem + ".err", env=env,
                              timeout=timeout)
        report = None
        for line in reversed(result.stdout.strip().splitlines()):
            if line.startswith("{"):
                report = json.loads(line)
                break
        log(f"  {comparison.name} / {name}: {report}")
        return result, report

    hits = 20_000 if quick else 100_000
    result, report = run("memory", ["pipeline-memory", photos[0], "--requests", str(hits)])
    if report:
        result_row["sides"].append(_side(
            f"{hits:,} memory hits", result, report, report["seconds_median"], report["hits_per_s"],
            f"image(for:) {report['hits_per_s']:,.0f} hits/s, cachedImage(for:) "
            f"{report['cached_image_hits_per_s']:,.0f} hits/s"))
    else:
        result_row["sides"].append(_side(f"{hits:,} memory hits", result, None, None))

    result, report = run("disk", ["pipeline-disk"] + photos)
    if report:
        result_row["sides"].append(_side(
            "disk-cache hit", result, report, report["disk_hit_ms"] / 1000, 1000 / report["disk_hit_ms"],
            f"per image: disk read {report['disk_read_ms']:.2f} ms, decode {report['decode_ms']:.2f} ms"))
        result_row["sides"].append(_side(
            "fetch + decode", result, report, report["fetch_decode_ms"] / 1000, 1000 / report["fetch_decode_ms"],
            f"{report['fetch_over_disk']:.2f}x the disk-cache hit's time"))
    else:
        result_row["sides"].append(_side("disk-cache hit", result, None, None))

    requests, urls = (2_000, 200) if quick else (10_000, 1_000)
    result, report = run("mixed", ["pipeline-mixed"] + photos + ["--requests", str(requests), "--urls", str(urls)])
    if report:
        result_row["sides"].append(_side(
            "mixed Zipf, 3 sizes", result, report, report["seconds_median"], report["requests_per_s"],
            f"requests made {report['server_requests']:.0f} (distinct URLs {report['distinct_urls']:.0f}), "
            f"decodes {report['decodes']:.0f} (distinct URL-size pairs {report['distinct_keys']:.0f}), "
            f"disk hits {report['disk_hits']:.0f}, memory hits {report['memory_hits']:.0f}"))
        met = report["server_requests"] == report["distinct_urls"]
        result_row["targets"].append({
            "text": "one request per distinct URL", "peer": "pixpipe", "metric": "pipeline", "threshold": 0,
            "status": f"{'met' if met else 'missed'} ({report['server_requests']:.0f} for "
                      f"{report['distinct_urls']:.0f})"})
    else:
        result_row["sides"].append(_side("mixed Zipf, 3 sizes", result, None, None))
    return result_row


def comparison(ctx):
    """The row's entry in the table (the harness calls run_row for it instead of running sides)."""
    requests = 2_000 if ctx.quick else 10_000
    return Comparison(
        name="pipeline",
        title=f"ImagePipeline: memory hits, disk-cache hit vs fetch+decode, {requests:,} mixed requests",
        sides=[],
        work={"files": requests},
        throughput="files/s",
        runner=run_row,
        note=("pixpipe alone (no peer runs on Linux); pixpipe-bench pipeline-* serve the bench's photos from an "
              "in-process server on 127.0.0.1, whose threads share the machine. The memory-hit time is for all the "
              "hits; disk and fetch times are per image (sequential loads); the mixed workload's throughput is "
              "requests per second."),
    )
