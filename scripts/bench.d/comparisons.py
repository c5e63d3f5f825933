"""The table of comparisons: every row the report prints, each side's command and the row's targets.

The rows of the image formats beyond PNG and JPEG (formats.py, camera.py), colour (colour.py), the
fetch at scale (scale.py), the fetch rates (rate.py) and the image pipeline (pipeline.py) are built in
their own modules and joined here; the classes they share are in model.py.
"""

import os
import subprocess

import camera
import colour
import formats
import pipeline as pipeline_row
import rate as rate_row
import scale as scale_row  # named apart from build()'s local `scale`
from model import Comparison, Side, Target, sh


def _files(root, folder, predicate):
    return sorted(os.path.join(root, folder, name) for name in os.listdir(os.path.join(root, folder)) if predicate(name))


def _fs_type(path):
    """The file system type of the folder path (or of its nearest existing parent), as findmnt names it."""
    path = os.path.abspath(path)
    while not os.path.exists(path):
        path = os.path.dirname(path)
    try:
        found = subprocess.run(["findmnt", "-n", "-o", "FSTYPE", "-T", path], capture_output=True, text=True)
        if found.stdout.strip():
            return found.stdout.strip()
        # stat names ext4 "ext2/ext3" (one magic number for all three): findmnt first, stat where it is missing.
        return subprocess.run(["stat", "-f", "-c", "%T", path], capture_output=True, text=True).stdout.strip() or "?"
    except OSError:
        return "?"


def build(ctx):
    """Every comparison, with commands for the inputs and tools in ctx."""
    root = ctx.inputs
    quick = ctx.quick
    # In-process timers: one warm-up pass, then timed passes; the interleaved runs repeat them.
    inner = ["--warmup", "1", "--repeat", "1" if quick else "2"]
    # PNG encoding is slow and warm-up changes little for it: one timed pass per run.
    inner_png_encode = ["--warmup", "0", "--repeat", "1"]
    py = [ctx.python, ctx.pil_ops]
    bench = [ctx.bench_exe or "pixpipe-bench"]
    pixpipe = ctx.pixpipe or "pixpipe"
    work = lambda name, side: os.path.join(ctx.scratch, name, side)  # noqa: E731

    def rel(paths):
        return [os.path.relpath(path, root) for path in paths]

    def mosaics(*names):
        return [os.path.join(root, "mosaic", name) for name in names]

    if quick:
        jpeg_baseline = mosaics("m6-00.jpg")
        jpeg_progressive = mosaics("m6-00-prog.jpg")
        pngs = mosaics("m6-00.png")
        encode_stem, encode_folder = "m2-00", "encode"
        resize_stem = "m6-00"
    else:
        jpeg_baseline = mosaics("m6-00.jpg", "m6-01.jpg", "m24-00.jpg")
        jpeg_progressive = mosaics("m6-00-prog.jpg", "m24-00-prog.jpg")
        pngs = mosaics("m6-00.png", "m6-01.png")
        encode_stem, encode_folder = "m6-00", "mosaic"
        resize_stem = "m24-00"
    encode_input = os.path.join(root, encode_folder, f"{encode_stem}.jpg")
    encode_ppm = os.path.join(root, "raw", f"{encode_stem}.ppm")
    resize_input = os.path.join(root, "mosaic", f"{resize_stem}.jpg")
    resize_v = os.path.join(root, "raw", f"{resize_stem}.v")
    resize_label = "24 MP" if resize_stem == "m24-00" else "6 MP"
    thumbs_src = os.path.join(root, "thumbs-src")
    thumb_count = len(os.listdir(thumbs_src))
    thumb_names = sorted(os.listdir(thumbs_src))
    thumb_mp = ctx.megapixels([("orig/" if name.startswith("kodim") else "mosaic/") + name for name in thumb_names])
    small_count = len(os.listdir(os.path.join(root, "www", "small")))
    small_bytes = sum(os.path.getsize(p) for p in _files(root, "www/small", lambda n: True))
    photo_count = len(os.listdir(os.path.join(root, "www", "photos")))
    photo_bytes = sum(os.path.getsize(p) for p in _files(root, "www/photos", lambda n: True))
    vips_out = "%s.jpg[Q=85]"

    def decode_row(name, title, files, peer_name, peer_script, target):
        return Comparison(
            name=name,
            title=title,
            work={"megapixels": ctx.megapixels(rel(files)), "files": len(files)},
            sides=[
                Side(peer_name, sh(peer_script, *files), requires=(peer_name,)),
                Side("Pillow", py + ["decode", *files] + inner, kind="inner"),
                Side("pixpipe", bench + ["decode", *files] + inner, kind="inner", is_pixpipe=True),
            ],
            targets=[target],
        )

    djpeg_loop = 'for f in "$@"; do djpeg -outfile /dev/null "$f" || exit 1; done'
    rows = [
        decode_row(
            "jpeg-decode",
            "JPEG decode, baseline, full size",
            jpeg_baseline,
            "djpeg",
            djpeg_loop,
            Target("djpeg", "time", 0.95, "within 5% of djpeg"),
        ),
        decode_row(
            "jpeg-decode-progressive",
            "JPEG decode, progressive, full size",
            jpeg_progressive,
            "djpeg",
            djpeg_loop,
            Target("djpeg", "time", 0.95, "within 5% of djpeg"),
        ),
        decode_row(
            "png-decode",
            "PNG decode",
            pngs,
            "pngtopnm",
            'for f in "$@"; do pngtopnm "$f" > /dev/null || exit 1; done',
            Target("Pillow", "time", 1.5, "at least 1.5x Pillow's speed"),
        ),
        Comparison(
            name="jpeg-encode",
            title=f"JPEG encode q85, 4:2:0, optimized Huffman ({encode_stem})",
            work={"megapixels": ctx.megapixels(rel([encode_input])), "files": 1},
            sides=[
                Side(
                    "cjpeg",
                    sh('cjpeg -quality 85 -optimize -outfile "$2/out.jpg" "$1"', encode_ppm, work("jpeg-encode", "cjpeg")),
                    out_dir=work("jpeg-encode", "cjpeg"),
                    requires=("cjpeg",),
                ),
                Side("Pillow", py + ["encode-jpeg", encode_input, "--quality", "85"] + inner, kind="inner"),
                Side(
                    "pixpipe",
                    bench + ["encode-jpeg", encode_input, "--quality", "85"] + inner,
                    kind="inner",
                    is_pixpipe=True,
                ),
            ],
            targets=[Target("cjpeg", "time", 0.95, "within 5% of cjpeg")],
            note="cjpeg reads the same pixels from a PPM (timed as a process); Pillow and pixpipe encode them in memory.",
        ),
        Comparison(
            name="png-encode",
            title=f"PNG encode, zlib level 6 ({encode_stem})",
            work={"megapixels": ctx.megapixels(rel([encode_input])), "files": 1},
            sides=[
                Side(
                    "pnmtopng",
                    sh('pnmtopng "$1" > "$2/out.png"', encode_ppm, work("png-encode", "pnmtopng")),
                    out_dir=work("png-encode", "pnmtopng"),
                    requires=("pnmtopng",),
                ),
                Side("Pillow", py + ["encode-png", encode_input] + inner_png_encode, kind="inner"),
                Side(
                    "pixpipe", bench + ["encode-png", encode_input] + inner_png_encode, kind="inner", is_pixpipe=True
                ),
            ],
            targets=[Target("Pillow", "time", 1.0, "at least Pillow's speed at equal size")],
        ),
    ]

    for label, scale in (("1/8", "0.125"), ("1/2", "0.5")):
        name = "resize-" + label.replace("/", "-")
        rows.append(
            Comparison(
                name=name,
                title=f"resize {resize_label} -> {label}, Lanczos-3",
                work={"megapixels": ctx.megapixels(rel([resize_input])), "files": 1},
                sides=[
                    Side("Pillow", py + ["resize", resize_input, "--scale", scale] + inner, kind="inner"),
                    Side(
                        "vips",
                        ["vips", "resize", resize_v, os.path.join(work(name, "vips"), "out.v"), scale, "--kernel", "lanczos3"],
                        out_dir=work(name, "vips"),
                        requires=("vips",),
                    ),
                    Side("pixpipe", bench + ["resize", resize_input, "--scale", scale] + inner, kind="inner", is_pixpipe=True),
                ],
                targets=[Target("Pillow", "time", 1.0, "faster than Pillow")],
                note="vips is timed as a process reading an uncompressed .v file, with all its threads.",
            )
        )

    def vipsthumbnail_folder(source, out_dir, pattern):
        return sh('ls -1 "$1"/* | xargs -P 2 -n 8 vipsthumbnail -s 256 -o "$2/' + pattern + '"', source, out_dir)

    def pillow_folder(source, out_dir, fmt):
        return py + ["thumbnail", source, out_dir, "--size", "256", "--processes", "2", "--format", fmt]

    def pixpipe_folder(source, out_dir, fmt):
        return [pixpipe, "thumbnail", source, "--out", out_dir, "--size", "256", "--format", fmt]

    def thumbnail_sides(name, source):
        """vipsthumbnail, Pillow and pixpipe thumbnailing source to 256 px JPEG q85 (PNG for the PSNR pass)."""
        psnr_dir = lambda side: os.path.join(ctx.scratch, f"{name}-psnr", side)  # noqa: E731
        return [
            Side(
                "vipsthumbnail",
                vipsthumbnail_folder(source, work(name, "vipsthumbnail"), vips_out),
                out_dir=work(name, "vipsthumbnail"),
                requires=("vipsthumbnail",),
                psnr_argv=vipsthumbnail_folder(source, psnr_dir("vipsthumbnail"), "%s.png"),
                psnr_dir=psnr_dir("vipsthumbnail"),
            ),
            Side(
                "Pillow",
                pillow_folder(source, work(name, "Pillow"), "jpeg"),
                out_dir=work(name, "Pillow"),
                psnr_argv=pillow_folder(source, psnr_dir("Pillow"), "png"),
                psnr_dir=psnr_dir("Pillow"),
            ),
            Side(
                "pixpipe",
                pixpipe_folder(source, work(name, "pixpipe"), "jpeg"),
                out_dir=work(name, "pixpipe"),
                is_pixpipe=True,
                pixpipe_subcommand="thumbnail",
                psnr_argv=pixpipe_folder(source, psnr_dir("pixpipe"), "png"),
                psnr_dir=psnr_dir("pixpipe"),
            ),
        ]

    rows.append(
        Comparison(
            name="thumbnail-folder",
            title=f"thumbnail a folder of {thumb_count} photos to 256 px, all cores",
            work={"megapixels": thumb_mp, "files": thumb_count},
            sides=thumbnail_sides("thumbnail-folder", thumbs_src),
            targets=[
                Target("vipsthumbnail", "time", 2.5, "at least 2.5x vipsthumbnail's speed"),
                Target("Pillow", "time", 2.5, "at least 2.5x Pillow's speed"),
                Target("vipsthumbnail", "memory", 1.0, "no more peak memory than vipsthumbnail"),
                Target("pixpipe", "psnr", 35.0, "PSNR >= 35 dB against the float Lanczos reference"),
            ],
            expected_files=thumb_count,
            throughput="files/s",
            memory="tree",
            psnr=True,
            sources=thumbs_src,
            note=(
                "Timed runs write JPEG q85: vipsthumbnail through xargs -P 2, Pillow draft() + thumbnail() in a "
                "pool of 2 processes, pixpipe its default threads. PSNR is measured on a separate untimed run of "
                "each side writing PNG, against a float Lanczos-3 resize of the full decode (scripts/bench.d/quality.py)."
            ),
        )
    )

    def small_fetch(name, folder, *extra):
        """A `pixpipe fetch` side of the fetch-small row, 32 connections like curl's, with extra options."""
        return Side(
            name,
            [pixpipe, "fetch", ctx.list_path("small", "txt"), "--out", work("fetch-small", folder),
             "--concurrency", "32", "--per-host", "32", *extra],
            out_dir=work("fetch-small", folder),
            is_pixpipe=True,
            pixpipe_subcommand="fetch",
        )

    rows.append(
        Comparison(
            name="fetch-small",
            title=f"fetch {small_count} x 30 KB from nginx on loopback, 32 at a time ({_fs_type(ctx.scratch)})",
            work={"files": small_count, "bytes": small_bytes},
            needs_server=True,
            sides=[
                Side(
                    "curl",
                    ["curl", "--parallel", "--parallel-max", "32", "-s", "--create-dirs", "-K",
                     ctx.list_path("small", "curl", work("fetch-small", "curl"))],
                    out_dir=work("fetch-small", "curl"),
                    requires=("curl",),
                ),
                Side(
                    "wget2",
                    ["wget2", "--max-threads=32", "-q", "--no-robots", "-nd", "-P", work("fetch-small", "wget2"),
                     "-i", ctx.list_path("small", "txt")],
                    out_dir=work("fetch-small", "wget2"),
                    requires=("wget2",),
                ),
                Side(
                    "aria2c",
                    ["aria2c", "-j", "32", "-q", "--file-allocation=none", "--allow-overwrite=true",
                     "--auto-file-renaming=false", "--max-connection-per-server=1", "--split=1",
                     "-d", work("fetch-small", "aria2c"), "-i", ctx.list_path("small", "txt")],
                    out_dir=work("fetch-small", "aria2c"),
                    requires=("aria2c",),
                ),
                small_fetch("pixpipe", "pixpipe"),
                # The same without the decode that proves each image complete: what the transport, hashing,
                # atomic writes and the manifest cost on their own.
                small_fetch("pixpipe --no-verify", "no-verify", "--no-verify"),
                # The second yardstick: the libcurl transport against the URLSession one.
                small_fetch("pixpipe --transport urlsession", "urlsession", "--transport", "urlsession"),
            ],
            # The fetch targets: every guarantee on at curl's speed, --no-verify 1.3x, at most 2x its memory.
            targets=[
                Target("curl", "time", 1.0, "at least curl's speed (libcurl transport)"),
                Target("curl", "time", 1.3, "--no-verify: 1.3x curl's speed", side="pixpipe --no-verify"),
                Target("curl", "memory", 0.5, "peak memory no more than 2x curl's"),
            ],
            expected_files=small_count,
            throughput="files/s",
            note=("32 connections to the one host on every side. pixpipe also proves each JPEG complete (a 1/8 "
                  "decode), hashes it (SHA-256), writes it atomically and appends a manifest line; --no-verify "
                  "skips the decode. The transport alone is the transport-small row."),
        )
    )

    # The fetch rows where users keep their files: the disk under the bench's working folder, each run
    # into a fresh folder (the last run's is renamed aside, never deleted inside a timed run), order
    # alternated, each pixpipe side against the peer giving the same guarantee.
    disk = lambda side: os.path.join(ctx.work, "fetch-disk", "out", side)  # noqa: E731
    disk_fs = _fs_type(disk(""))

    def disk_fetch(name, folder, *extra):
        """A `pixpipe fetch` side of the fetch-disk row (durable when it exits 0), 32 connections."""
        return Side(
            name,
            [pixpipe, "fetch", ctx.list_path("small", "txt"), "--out", disk(folder),
             "--concurrency", "32", "--per-host", "32", *extra],
            out_dir=disk(folder),
            is_pixpipe=True,
            pixpipe_subcommand="fetch",
        )

    def curl_disk(name, folder, verify):
        """curl --parallel into a fresh folder, then (verify) jpeginfo -c over every file, then sync -f."""
        check = 'find "$2" -type f -print0 | xargs -0 -P 2 -n 500 jpeginfo -c >/dev/null && ' if verify else ""
        return Side(
            name,
            sh('curl --parallel --parallel-max 32 -s --create-dirs -K "$1" && ' + check + 'sync -f "$2"',
               ctx.list_path("small", "curl", disk(folder)), disk(folder)),
            out_dir=disk(folder),
            requires=("curl", "jpeginfo") if verify else ("curl",),
        )

    rows.append(
        Comparison(
            name="fetch-disk",
            title=f"fetch {small_count} x 30 KB from nginx on loopback to the disk ({disk_fs}), 32 at a time",
            work={"files": small_count, "bytes": small_bytes},
            needs_server=True,
            sides=[
                curl_disk("curl + jpeginfo + sync -f", "curl-verified", True),
                disk_fetch("pixpipe", "pixpipe"),
                curl_disk("curl + sync -f", "curl", False),
                disk_fetch("pixpipe --no-verify", "no-verify", "--no-verify"),
            ],
            targets=[
                Target("curl + jpeginfo + sync -f", "time", 1.5,
                       "verified and durable: 1.5x curl + jpeginfo + sync -f"),
                Target("curl + sync -f", "time", 1.0, "--no-verify: at least curl + sync -f",
                       side="pixpipe --no-verify"),
                Target("curl + sync -f", "memory", 0.5, "peak memory no more than 2x curl's"),
                Target("curl + sync -f", "memory", 0.5, "--no-verify: peak memory no more than 2x curl's",
                       side="pixpipe --no-verify"),
            ],
            expected_files=small_count,
            throughput="files/s",
            alternate=True,
            min_runs=7,
            note=(f"Written to {disk_fs} under .bench/work/fetch-disk, a fresh folder per run, sides in alternating "
                  "order. Each pixpipe side is timed against the peer with its guarantee: verified and durable "
                  "against curl, then jpeginfo -c over every file (two processes at a time), then sync -f of the "
                  "folder's file system; --no-verify against curl then sync -f. Peak memory is the largest single "
                  "process (curl's on the peer sides)."),
        )
    )

    loop = getattr(ctx, "request_loop", None) or "PixpipeRequestLoop"
    rows.append(
        Comparison(
            name="transport-small",
            title=f"GET {small_count} x 30 KB from nginx into memory, 32 at a time (transports alone)",
            work={"files": small_count, "bytes": small_bytes},
            needs_server=True,
            sides=[
                Side(
                    "curl",
                    ["curl", "--parallel", "--parallel-max", "32", "-s", "-K",
                     ctx.list_path("small", "curl", os.devnull)],
                    requires=("curl",),
                ),
                Side(
                    "pixpipe",
                    [loop, "@" + ctx.list_path("small", "txt"), str(small_count), "32", "curl", "transport"],
                    is_pixpipe=True,
                    requires=(loop,),
                ),
                # The same requests from tasks on the global executor (no executor preference): what a caller
                # that does not opt in gets.
                Side(
                    "pixpipe, global executor",
                    [loop, "@" + ctx.list_path("small", "txt"), str(small_count), "32", "curl", "global"],
                    requires=(loop,),
                ),
                Side(
                    "URLSession transport",
                    [loop, "@" + ctx.list_path("small", "txt"), str(small_count), "32", "urlsession", "global"],
                    requires=(loop,),
                    # Ten times slower than the others and far from its target: five runs settle it.
                    max_runs=5,
                ),
            ],
            min_runs=15,
            targets=[
                Target("curl", "time", 1.0, "as fast as curl --parallel (libcurl transport)"),
                Target("URLSession transport", "time", 5.0, "5x faster than the URLSession transport"),
            ],
            throughput="files/s",
            note=("PixpipeRequestLoop: one HTTPClient, 32 tasks each sending the next request, bodies kept in memory "
                  "and dropped; curl writes to /dev/null. pixpipe's tasks prefer the transport's thread as their "
                  "executor (CurlTransport.taskExecutor), so a response resumes its task without a thread hop; "
                  "'global executor' runs the same tasks without that preference."),
        )
    )

    rows.append(
        Comparison(
            name="fetch-thumbnail",
            title=f"fetch + thumbnail {photo_count} photos from nginx to 256 px",
            work={"files": photo_count, "bytes": photo_bytes},
            needs_server=True,
            sides=[
                Side(
                    "img2dataset",
                    [os.path.join(ctx.venv_bin, "img2dataset"), "--url_list", ctx.list_path("photos", "txt"),
                     "--input_format", "txt", "--output_format", "files",
                     "--output_folder", work("fetch-thumbnail", "img2dataset"), "--image_size", "256",
                     "--resize_mode", "keep_ratio_largest", "--encode_quality", "85", "--processes_count", "2",
                     "--thread_count", "32", "--timeout", "30", "--retries", "0", "--enable_wandb", "False"],
                    out_dir=work("fetch-thumbnail", "img2dataset"),
                    # Its start-up alone takes seconds; fewer runs keep the whole run in budget, and
                    # --quick (under two minutes in all) leaves it out.
                    max_runs=3,
                    skip_reason="not run with --quick (one run takes 20-25 s); see a full run" if quick else None,
                    requires=(os.path.join(ctx.venv_bin, "img2dataset"),),
                ),
                Side(
                    "curl+vipsthumbnail",
                    sh(
                        'curl --parallel --parallel-max 32 -s --create-dirs -K "$1" && mkdir -p "$2/thumbs" && '
                        'ls -1 "$2"/dl/* | xargs -P 2 -n 16 vipsthumbnail -s 256 -o "$2/thumbs/' + vips_out + '"',
                        ctx.list_path("photos", "curl", os.path.join(work("fetch-thumbnail", "curl+vipsthumbnail"), "dl")),
                        work("fetch-thumbnail", "curl+vipsthumbnail"),
                    ),
                    out_dir=work("fetch-thumbnail", "curl+vipsthumbnail"),
                    result_subdir="thumbs",
                    requires=("curl", "vipsthumbnail"),
                ),
                Side(
                    "pixpipe",
                    [pixpipe, "fetch", ctx.list_path("photos", "txt"), "--out", work("fetch-thumbnail", "pixpipe"),
                     "--thumbnail", "256"],
                    out_dir=work("fetch-thumbnail", "pixpipe"),
                    is_pixpipe=True,
                    pixpipe_subcommand="fetch",
                ),
            ],
            targets=[Target("img2dataset", "time", 5.0, "at least 5x img2dataset's throughput")],
            expected_files=photo_count,
            throughput="files/s",
            memory="tree",
            note="img2dataset: 2 processes x 32 threads, keep_ratio_largest, JPEG q85.",
        )
    )

    for kind, folder in (("JPEG", "single-jpeg"), ("PNG", "single-png")):
        name = f"memory-24mp-{kind.lower()}"
        source = os.path.join(root, folder)
        rows.append(
            Comparison(
                name=name,
                title=f"peak memory thumbnailing one 24 MP {kind} to 256 px",
                work={"megapixels": ctx.megapixels(["mosaic/m24-00.png"]), "files": 1},
                primary="memory",
                sides=[
                    Side(
                        "vipsthumbnail",
                        sh('vipsthumbnail -s 256 -o "$2/' + vips_out + '" "$1"/*', source, work(name, "vipsthumbnail")),
                        out_dir=work(name, "vipsthumbnail"),
                        requires=("vipsthumbnail",),
                    ),
                    Side(
                        "pixpipe",
                        [pixpipe, "thumbnail", source, "--out", work(name, "pixpipe"), "--size", "256"],
                        out_dir=work(name, "pixpipe"),
                        is_pixpipe=True,
                        pixpipe_subcommand="thumbnail",
                    ),
                ],
                targets=[Target("vipsthumbnail", "memory", 1.0, "no more peak memory than vipsthumbnail")],
                expected_files=1,
                throughput=None,
            )
        )
    # WebP, AVIF and GIF decode, WebP encode, a folder of WebP photos thumbnailed.
    rows += formats.build(ctx, bench, py, inner, work, thumbnail_sides)
    rows += colour.build(ctx, py, work)
    # The camera formats: HEIC, JPEG XL and TIFF decode, thumbnail folders, a huge TIFF, convert memory.
    rows += camera.build(ctx, bench, py, inner, work, thumbnail_sides)
    # The scale row: 200,000 URLs (20,000 with --quick), resumed, and 4 shards at once.
    rows.append(scale_row.comparison(ctx))
    rows.append(rate_row.comparison(ctx))
    # The image pipeline: memory hits, disk hit against fetch and decode, a mixed Zipf workload.
    rows.append(pipeline_row.comparison(ctx))
    return rows

