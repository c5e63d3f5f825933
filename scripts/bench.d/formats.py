"""The WebP, AVIF and GIF comparisons, part of the table in comparisons.py.

Decode rows time every side in-process: pixpipe-bench and pil_ops.py report the decode alone, and
dwebp through tool_timer.py reports the "Time to decode picture" it prints with -v (no output is
written), so the 5% target is not blurred by process start-up. avifdec prints no time of its own
and is timed as a process with --info (it decodes every frame but converts nothing to RGB and
writes nothing), which favours it: pixpipe also converts YUV to RGB. The encode row times cwebp
as a process reading a PPM, like cjpeg in the JPEG row (cwebp converts RGB to YUV while reading,
outside its own -v encode time, so its process time is the comparable one).
"""

import os

from model import Comparison, Side, Target, sh


def build(ctx, bench, py, inner, work, thumbnail_sides):
    """The WebP, AVIF and GIF rows; thumbnail_sides(name, source_dir) gives the thumbnail row's sides."""
    root = ctx.inputs
    quick = ctx.quick

    def folder(name):
        return sorted(os.path.join(root, name, entry) for entry in os.listdir(os.path.join(root, name)))

    def rel(paths):
        return [os.path.relpath(path, root) for path in paths]

    timer = [ctx.python, os.path.join(os.path.dirname(ctx.pil_ops), "tool_timer.py")]
    within = lambda tool: Target(tool, "time", 0.95, f"within 5% of {tool}")  # noqa: E731

    def webp_decode(name, title, files):
        return Comparison(
            name=name,
            title=title,
            work={"megapixels": ctx.megapixels(rel(files)), "files": len(files)},
            sides=[
                Side(
                    "dwebp",
                    timer + ["--pattern", r"Time to decode picture: ([0-9.]+)s", "--files", *files, "--",
                             "dwebp", "-v", "{}"],
                    kind="inner",
                    requires=("dwebp",),
                ),
                Side("Pillow", py + ["decode", *files] + inner, kind="inner"),
                Side("pixpipe", bench + ["decode", *files] + inner, kind="inner", is_pixpipe=True),
            ],
            targets=[within("dwebp")],
            note="dwebp: the decode time it prints with -v (libwebp's defaults, one thread, no output written).",
        )

    lossy = folder("formats/webp-lossy")
    lossless = folder("formats/webp-lossless")
    avif = folder("formats/avif")
    gifs = folder("formats/gif")
    rows = [
        webp_decode("webp-decode-lossy", "WebP decode, lossy photo (q85), full size", lossy),
        webp_decode("webp-decode-lossless", "WebP decode, lossless photo, full size", lossless),
        Comparison(
            name="avif-decode",
            title="AVIF decode, 8-bit 4:2:0 photo, full size",
            work={"megapixels": ctx.megapixels(rel(avif)), "files": len(avif)},
            sides=[
                Side(
                    "avifdec",
                    sh('for f in "$@"; do avifdec --info "$f" > /dev/null || exit 1; done', *avif),
                    requires=("avifdec",),
                ),
                Side("Pillow", py + ["decode", *avif] + inner, kind="inner"),
                Side("pixpipe", bench + ["decode", *avif] + inner, kind="inner", is_pixpipe=True),
            ],
            targets=[within("avifdec")],
            note=("avifdec --info, timed as a process: dav1d with one thread, as pixpipe, but no YUV to RGB "
                  "conversion (pixpipe and Pillow convert to RGB), so the row is tilted towards avifdec."),
        ),
        Comparison(
            name="gif-decode-frames",
            title="GIF decode, every frame composited on the canvas",
            work={"megapixels": ctx.megapixels(rel(gifs)), "files": len(gifs)},
            sides=[
                Side("Pillow", py + ["decode-frames", *gifs] + inner, kind="inner"),
                Side("pixpipe", bench + ["decode-frames", *gifs] + inner, kind="inner", is_pixpipe=True),
            ],
            note=("Pillow: ImageSequence over every frame, each converted to RGBA; pixpipe: AnimationReader, "
                  "each frame a full-canvas RGBA image. Megapixels count every frame's canvas."),
        ),
    ]

    stem = "m2-00" if quick else "m6-00"
    encode_input = os.path.join(root, "encode" if quick else "mosaic", f"{stem}.jpg")
    encode_ppm = os.path.join(root, "raw", f"{stem}.ppm")
    cwebp_dir = work("webp-encode", "cwebp")
    rows.append(
        Comparison(
            name="webp-encode",
            title=f"WebP encode q85, method 4 ({stem})",
            work={"megapixels": ctx.megapixels(rel([encode_input])), "files": 1},
            sides=[
                Side(
                    "cwebp",
                    sh('cwebp -quiet -q 85 -m 4 "$1" -o "$2/out.webp"', encode_ppm, cwebp_dir),
                    out_dir=cwebp_dir,
                    requires=("cwebp",),
                ),
                Side("Pillow", py + ["encode-webp", encode_input, "--quality", "85", "--method", "4"] + inner,
                     kind="inner"),
                Side(
                    "pixpipe",
                    bench + ["encode-webp", encode_input, "--quality", "85", "--method", "4"] + inner,
                    kind="inner",
                    is_pixpipe=True,
                ),
            ],
            targets=[within("cwebp")],
            note="cwebp reads the same pixels from a PPM (timed as a process); Pillow and pixpipe encode them in memory.",
        )
    )

    source = os.path.join(root, "thumbs-src-webp")
    count = len(os.listdir(source))
    rows.append(
        Comparison(
            name="thumbnail-folder-webp",
            title=f"thumbnail a folder of {count} WebP photos to 256 px, all cores",
            work={"megapixels": ctx.megapixels(rel(folder("thumbs-src-webp"))), "files": count},
            sides=thumbnail_sides("thumbnail-folder-webp", source),
            targets=[
                Target("vipsthumbnail", "time", 1.0, "at least as fast as vipsthumbnail"),
                Target("vipsthumbnail", "memory", 1.0, "no more peak memory than vipsthumbnail"),
            ],
            expected_files=count,
            throughput="files/s",
            memory="tree",
            note=("As the thumbnail-folder row, from lossy WebP q85 sources: timed runs write JPEG q85; "
                  "vipsthumbnail through xargs -P 2 (libvips shrinks on load through libwebp's scaling), Pillow "
                  "thumbnail() in a pool of 2 processes (draft() does nothing for WebP), pixpipe its default threads "
                  "and libwebp's scaled decoding."),
        )
    )
    return rows
