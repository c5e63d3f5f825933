"""The camera formats (HEIC, JPEG XL, TIFF), part of the table in comparisons.py.

Decode rows compare pixpipe-bench's in-process decode with the reference tool over the same library:
- heif-decode: heif-convert writing .y4m, timed as a process. Y4M is the decoded YCbCr planes written out
  as they are, so heif-convert does no YCbCr to RGB conversion and no PNG/JPEG encoding (pixpipe and Pillow
  convert to RGB), but it pays process start-up, reading the file and writing ~18 MB to the outputs
  folder (tmpfs by default): the row is tilted towards heif-convert by the conversion it skips, and
  slightly against it by start-up and the write.
- jxl-decode: djxl with no output file decodes and discards the pixels, and prints its own speed over
  --num_reps decodes; tool_timer.py turns that into seconds, so start-up is left out. Two threads, as
  pixpipe's JPEG XL decoder uses at most two.
- tiff-decode: `tiffcp -c none` as a process (libtiff decodes every strip and writes them uncompressed).
Pillow reads TIFF itself, HEIC through pillow-heif and JPEG XL through pillow-jxl-plugin; those wheels bring
their own libheif and libjxl builds, not Debian's.

A pixpipe side whose pixpipe cannot read the format yet (`pixpipe info FILE` fails) is reported as skipped
with pixpipe's message, and so is a Pillow side without its plugin.
"""

import os
import subprocess

from model import Comparison, Side, Target, sh


def _first_line(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else "no message"


def build(ctx, bench, py, inner, work, thumbnail_sides):
    """The HEIC, JPEG XL and TIFF rows; thumbnail_sides(name, source_dir) gives a thumbnail row's sides."""
    root = ctx.inputs
    pixpipe = ctx.pixpipe or "pixpipe"

    def folder(name):
        return sorted(os.path.join(root, name, entry) for entry in os.listdir(os.path.join(root, name)))

    def rel(paths):
        return [os.path.relpath(path, root) for path in paths]

    probes = {}

    def pixpipe_skip(label, sample):
        """Why pixpipe's sides cannot run on this format, or None when `pixpipe info` reads the sample."""
        if not ctx.pixpipe:
            return None  # the harness reports pixpipe as not built
        if label not in probes:
            result = subprocess.run([ctx.pixpipe, "info", sample], capture_output=True, text=True)
            probes[label] = None if result.returncode == 0 else (
                f"pixpipe does not read {label} yet (pixpipe info: {_first_line(result.stderr + result.stdout)})")
        return probes[label]

    def pillow_skip(label, module, package):
        """Why the Pillow side cannot read this format, or None."""
        key = "pillow-" + module
        if key not in probes:
            result = subprocess.run([ctx.python, "-c", f"import {module}"], capture_output=True)
            probes[key] = None if result.returncode == 0 else f"Pillow reads no {label} without {package} (not installed)"
        return probes[key]

    def skipping(sides, pixpipe_reason, pillow_reason=None):
        for side in sides:
            if side.is_pixpipe and pixpipe_reason:
                side.skip_reason = pixpipe_reason
            elif side.name.startswith("Pillow") and pillow_reason:
                side.skip_reason = pillow_reason
        return sides

    timer = [ctx.python, os.path.join(os.path.dirname(ctx.pil_ops), "tool_timer.py")]
    within = lambda tool: Target(tool, "time", 0.95, f"within 5% of {tool}")  # noqa: E731

    heic = folder("formats/heic")
    jxl = folder("formats/jxl")
    tiff = folder("formats/tiff")
    heic_skip = pixpipe_skip("HEIC", heic[0])
    jxl_skip = pixpipe_skip("JPEG XL", jxl[0])
    tiff_skip = pixpipe_skip("TIFF", tiff[0])
    heic_pillow = pillow_skip("HEIC", "pillow_heif", "pillow-heif")
    jxl_pillow = pillow_skip("JPEG XL", "pillow_jxl", "pillow-jxl-plugin")

    def decode_sides(peer, files, pixpipe_reason, pillow_reason=None):
        return skipping(
            [
                peer,
                Side("Pillow", py + ["decode", *files] + inner, kind="inner"),
                Side("pixpipe", bench + ["decode", *files] + inner, kind="inner", is_pixpipe=True),
            ],
            pixpipe_reason,
            pillow_reason,
        )

    heif_out = work("heif-decode", "heif-convert")
    tiff_out = work("tiff-decode", "tiffcp")
    rows = [
        Comparison(
            name="heif-decode",
            title="HEIC decode, 12 MP 8-bit 4:2:0 photo, full size",
            work={"megapixels": ctx.megapixels(rel(heic)), "files": len(heic)},
            sides=decode_sides(
                Side(
                    "heif-convert",
                    ["sh", "-c",
                     'out="$1"; shift; for f in "$@"; do heif-convert --quiet "$f" "$out/out.y4m" || exit 1; done',
                     "sh", heif_out, *heic],
                    out_dir=heif_out,
                    requires=("heif-convert",),
                ),
                heic,
                heic_skip,
                heic_pillow,
            ),
            targets=[within("heif-convert")],
            note=("heif-convert writing .y4m, timed as a process: libheif 1.15 with libde265, as pixpipe, but the "
                  "YCbCr planes are written as decoded, with no conversion to RGB (pixpipe and Pillow convert), "
                  "which tilts the row towards heif-convert more than its start-up and the 18 MB write tilt it "
                  "back. Pillow: pillow-heif, which brings its own libheif."),
        ),
        Comparison(
            name="jxl-decode",
            title="JPEG XL decode, 12 MP lossy photo (cjxl -d 1), full size",
            work={"megapixels": ctx.megapixels(rel(jxl)), "files": len(jxl)},
            sides=decode_sides(
                Side(
                    "djxl",
                    timer + ["--rate-pattern", r"([0-9]+) x ([0-9]+), (?:geomean: )?([0-9.]+) MP/s",
                             "--files", *jxl, "--", "djxl", "{}", "--num_reps=3", "--num_threads=2"],
                    kind="inner",
                    requires=("djxl",),
                ),
                jxl,
                jxl_skip,
                jxl_pillow,
            ),
            targets=[within("djxl")],
            note=("djxl with no output file: the decode speed it prints over 3 decodes (libjxl 0.7, 2 threads, "
                  "as pixpipe's decoder uses at most 2), to 8-bit RGB pixels it then discards. Pillow: "
                  "pillow-jxl-plugin, which brings its own libjxl."),
        ),
        Comparison(
            name="tiff-decode",
            title="TIFF decode, 12 MP striped RGB (Deflate and LZW), full size",
            work={"megapixels": ctx.megapixels(rel(tiff)), "files": len(tiff)},
            sides=decode_sides(
                Side(
                    "tiffcp",
                    ["sh", "-c", 'out="$1"; shift; for f in "$@"; do tiffcp -c none "$f" "$out/out.tif" || exit 1; done',
                     "sh", tiff_out, *tiff],
                    out_dir=tiff_out,
                    requires=("tiffcp",),
                ),
                tiff,
                tiff_skip,
            ),
            targets=[within("tiffcp")],
            note=("tiffcp -c none, timed as a process: libtiff 4.5 decodes every strip and writes it uncompressed "
                  "(36 MB per file to the outputs folder, tmpfs by default). One file Deflate with the horizontal "
                  "predictor, one LZW, both made by vips."),
        ),
    ]

    # The HEIC folders: 10-bit Display P3, thumbnailed to sRGB as a phone's photos would be (the colour row's sides);
    # the second holds the same photos with a 320x240 thumbnail image beside each primary, as phones store one.
    def heic_folder_row(name, folder_name, what, note):
        source = os.path.join(root, folder_name)
        count = len(os.listdir(source))
        vips_out = "%s.jpg[Q=85,optimize_coding,strip]"
        return Comparison(
            name=name,
            title=f"thumbnail a folder of {count} HEIC photos (12 MP, 10-bit, Display P3{what}) to 256 px sRGB, all cores",
            work={"megapixels": ctx.megapixels(rel(folder(folder_name))), "files": count},
            sides=skipping(
                [
                    Side(
                        "vipsthumbnail",
                        # One file per vipsthumbnail: with -n 8 a folder of 8 would be one process on one core.
                        sh('ls -1 "$1"/* | xargs -P 2 -n 1 vipsthumbnail -s 256 --export-profile srgb -o "$2/'
                           + vips_out + '"', source, work(name, "vipsthumbnail")),
                        out_dir=work(name, "vipsthumbnail"),
                        requires=("vipsthumbnail",),
                    ),
                    Side(
                        "Pillow+ImageCms",
                        py + ["thumbnail", source, work(name, "Pillow+ImageCms"), "--size", "256", "--processes", "2",
                              "--format", "jpeg", "--to-srgb"],
                        out_dir=work(name, "Pillow+ImageCms"),
                    ),
                    Side(
                        "pixpipe",
                        [pixpipe, "thumbnail", source, "--out", work(name, "pixpipe"), "--size", "256",
                         "--format", "jpeg"],
                        out_dir=work(name, "pixpipe"),
                        is_pixpipe=True,
                        pixpipe_subcommand="thumbnail",
                    ),
                ],
                heic_skip,
                heic_pillow,
            ),
            targets=[
                Target("vipsthumbnail", "time", 1.5, "at least 1.5x vipsthumbnail's speed"),
                Target("vipsthumbnail", "memory", 1.0, "no more peak memory than vipsthumbnail"),
            ],
            expected_files=count,
            throughput="files/s",
            memory="tree",
            note=note,
        )

    rows.append(
        heic_folder_row(
            "thumbnail-folder-heic", "thumbs-src-heic", "",
            "12 MP photos made by heif-enc -b 10 -q 80 with the Display P3 profile, each ONE coded image, not "
            "the 512x512 tile grid a phone writes (heif-enc 1.15 cannot write grids), so libheif decodes one "
            "large HEVC picture on every side. Timed runs write JPEG q85 in sRGB: vipsthumbnail "
            "--export-profile srgb through xargs -P 2 -n 1 (libvips reads HEIC through the same libheif 1.15), "
            "Pillow (pillow-heif) thumbnail() + ImageCms to sRGB in a pool of 2 processes, pixpipe its "
            "default threads (sRGB).",
        )
    )
    rows.append(
        heic_folder_row(
            "thumbnail-folder-heic-thumb", "thumbs-src-heic-thumb", ", with a 320 px thumbnail image",
            "The thumbnail-folder-heic photos made again with heif-enc -t 320: each carries a 320x240 'thmb' "
            "item beside its primary, as phones store one. A 256 px thumbnail fits in it, so vipsthumbnail "
            "(libvips 8.14 loads the HEIF thumbnail when it is larger than the target) and pixpipe (when it is at "
            "least the target's size) decode the small item and never the 12 MP primary; Pillow (pillow-heif) "
            "decodes the primary. Same sides and outputs as thumbnail-folder-heic.",
        )
    )

    name = "thumbnail-folder-jxl"
    source = os.path.join(root, "thumbs-src-jxl")
    count = len(os.listdir(source))
    jxl_sides = thumbnail_sides(name, source)
    # One file per vipsthumbnail process (the shared sides batch 8, which would leave a core idle on so few files).
    jxl_sides[0].argv = sh('ls -1 "$1"/* | xargs -P 2 -n 1 vipsthumbnail -s 256 -o "$2/%s.jpg[Q=85]"', source,
                           work(name, "vipsthumbnail"))
    rows.append(
        Comparison(
            name=name,
            title=f"thumbnail a folder of {count} JPEG XL photos (12 MP, lossy d1) to 256 px, all cores",
            work={"megapixels": ctx.megapixels(rel(folder("thumbs-src-jxl"))), "files": count},
            sides=skipping(jxl_sides, jxl_skip, jxl_pillow),
            targets=[
                Target("vipsthumbnail", "time", 2.0, "at least 2x vipsthumbnail's speed (DC path)"),
                Target("vipsthumbnail", "memory", 1.0, "no more peak memory than vipsthumbnail"),
            ],
            expected_files=count,
            throughput="files/s",
            memory="tree",
            note=("12 MP photos made by cjxl -d 1 (VarDCT: the 1/8-scale DC image is stored before the AC; cjxl 0.7 "
                  "writes the same bytes with -p). "
                  "Timed runs write JPEG q85: vipsthumbnail through xargs -P 2 -n 1 (libvips 8.14 decodes JPEG XL at "
                  "full size through libjxl 0.7, then shrinks), Pillow (pillow-jxl-plugin) thumbnail() in a pool "
                  "of 2 processes, pixpipe its default threads, thumbnailing from the DC image."),
        )
    )

    name = "thumbnail-tiff-huge"
    huge = folder("tiff-huge")
    huge_dir = os.path.join(root, "tiff-huge")
    side_px = ctx.megapixels(rel(huge))
    huge_side = int(os.path.basename(huge[0])[1:-4])  # h20000.tif
    rows.append(
        Comparison(
            name=name,
            title=f"thumbnail one {huge_side:,} x {huge_side:,} striped LZW TIFF to 256 px",
            work={"megapixels": side_px, "files": 1},
            sides=skipping(
                [
                    Side(
                        "vipsthumbnail",
                        sh('vipsthumbnail -s 256 -o "$2/%s.jpg[Q=85]" "$1"/*', huge_dir, work(name, "vipsthumbnail")),
                        out_dir=work(name, "vipsthumbnail"),
                        requires=("vipsthumbnail",),
                    ),
                    Side(
                        "pixpipe",
                        # The file (about 800 MB) is over the default 256 MiB input limit.
                        [pixpipe, "thumbnail", huge_dir, "--out", work(name, "pixpipe"), "--size", "256",
                         "--max-bytes", "1G"],
                        out_dir=work(name, "pixpipe"),
                        is_pixpipe=True,
                        pixpipe_subcommand="thumbnail",
                    ),
                ],
                tiff_skip,
            ),
            targets=[
                Target("vipsthumbnail", "peak_mb", 100.0, "pixpipe's peak memory under 100 MB"),
                Target("vipsthumbnail", "time", 1.0, "at least vipsthumbnail's speed"),
            ],
            expected_files=1,
            throughput="MP/s",
            note=("One RGB TIFF in LZW strips (vips tiffsave's default rows per strip), a Kodak mosaic replicated "
                  "by vips; 20,000 x 20,000 in both modes (about 800 MB, so pixpipe is given --max-bytes 1G). Both sides read the strips "
                  "in order and shrink as they read; no Pillow side (it would load the whole image)."),
        )
    )

    # Peak memory of `pixpipe convert` against `vips copy` on the same file and output format.
    for name, label, source_file, out_name, vips_options in (
        ("convert-heic-jpeg", "HEIC -> JPEG", heic[0], "out.jpg", "[Q=85,optimize_coding]"),
        ("convert-jxl-png", "JPEG XL -> PNG", jxl[0], "out.png", ""),
        ("convert-tiff-png", "TIFF (Deflate) -> PNG", tiff[0], "out.png", ""),
    ):
        reason = {"convert-heic-jpeg": heic_skip, "convert-jxl-png": jxl_skip, "convert-tiff-png": tiff_skip}[name]
        rows.append(
            Comparison(
                name=name,
                title=f"peak memory converting one 12 MP {label}",
                work={"megapixels": ctx.megapixels(rel([source_file])), "files": 1},
                primary="memory",
                sides=skipping(
                    [
                        Side(
                            "vips copy",
                            ["vips", "copy", source_file, os.path.join(work(name, "vips"), out_name) + vips_options],
                            out_dir=work(name, "vips"),
                            requires=("vips",),
                        ),
                        Side(
                            "pixpipe",
                            [pixpipe, "convert", source_file, os.path.join(work(name, "pixpipe"), out_name)],
                            out_dir=work(name, "pixpipe"),
                            is_pixpipe=True,
                            pixpipe_subcommand="convert",
                        ),
                    ],
                    reason,
                ),
                targets=[Target("vips copy", "memory", 1.0, "no more peak memory than vips copy")],
                expected_files=1,
                throughput=None,
                note=("vips copy IN OUT (JPEG: Q=85 and optimized Huffman tables, pixpipe's defaults; PNG: "
                      "compression 6 on both), timed as processes; the row is about peak memory."),
            )
        )
    return rows
