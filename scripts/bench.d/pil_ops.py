"""Pillow side of the benchmarks: the same operations pixpipe-bench times, run in one process.

    pil_ops.py decode FILES...                   time decoding every file (from memory)
    pil_ops.py decode-frames FILES...            time decoding every frame of every file, as RGBA
    pil_ops.py encode-jpeg FILE --quality 85     time encoding the decoded FILE
    pil_ops.py encode-png FILE                   time encoding the decoded FILE
    pil_ops.py encode-webp FILE --quality 85 --method 4
    pil_ops.py resize FILE --scale 0.125         time resize(LANCZOS) of the decoded FILE
    pil_ops.py thumbnail DIR OUT --size 256 --processes 2 [--format jpeg|png] [--to-srgb]
                                                 thumbnail() with draft, a pool of processes;
                                                 --to-srgb: ImageCms from the embedded profile to sRGB

The timed subcommands print one JSON object with the keys pixpipe-bench prints (op,
seconds_median, megapixels, mp_per_s, ...), so the harness reads both the same way.
Settings mirror pixpipe's defaults: JPEG quality 85, 4:2:0, optimized Huffman tables;
PNG zlib level 6; WebP quality 85, method 4 (libwebp's default, as cwebp's).
AVIF is read through Pillow's own plugin when this Pillow has one, else through pillow-avif-plugin
when it is installed (`decode` then fails on AVIF files when neither is there). HEIC and JPEG XL
are read through pillow-heif and pillow-jxl-plugin when they are installed.
"""

import argparse
import io
import json
import os
import statistics
import sys
import time
from multiprocessing import Pool

from PIL import Image, ImageSequence

try:  # Registers an AVIF plugin on Pillows without their own (harmless where Pillow reads AVIF itself).
    import pillow_avif  # noqa: F401
except ImportError:
    pass
try:  # HEIC through libheif, as pixpipe and vips read it; the camera rows say skipped without it.
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:
    pass
try:  # Registers a JPEG XL plugin (libjxl, bundled in the wheel).
    import pillow_jxl  # noqa: F401
except ImportError:
    pass

# Mosaics are larger than Pillow's decompression-bomb warning threshold on purpose.
Image.MAX_IMAGE_PIXELS = None


def timed(warmups, repetitions, body):
    """Runs body warmups times untimed, then repetitions times timed; returns the seconds."""
    for _ in range(warmups):
        body()
    seconds = []
    for _ in range(repetitions):
        start = time.perf_counter()
        body()
        seconds.append(time.perf_counter() - start)
    return seconds


def report(op, files, megapixels, seconds, output_bytes=None):
    median = statistics.median(seconds)
    result = {
        "op": op,
        "files": files,
        "megapixels": megapixels,
        "repetitions": len(seconds),
        "seconds_median": median,
        "seconds_min": min(seconds),
        "mp_per_s": megapixels / median if median > 0 else 0,
    }
    if output_bytes is not None:
        result["output_bytes"] = output_bytes
    print(json.dumps(result, sort_keys=True))


def load(path):
    with Image.open(path) as image:
        image.load()
        return image.convert("RGB") if image.mode not in ("RGB", "L") else image.copy()


def cmd_decode(args):
    blobs = []
    for path in args.files:
        with open(path, "rb") as handle:
            blobs.append(handle.read())
    pixels = [0]

    def body():
        total = 0
        for blob in blobs:
            with Image.open(io.BytesIO(blob)) as image:
                image.load()
                total += image.width * image.height
        pixels[0] = total

    seconds = timed(args.warmup, args.repeat, body)
    report("decode", len(blobs), pixels[0] / 1e6, seconds)


def cmd_decode_frames(args):
    """Every frame composited on the canvas, as a viewer shows it: Pillow's ImageSequence, each as RGBA."""
    blobs = []
    for path in args.files:
        with open(path, "rb") as handle:
            blobs.append(handle.read())
    counts = [0, 0]

    def body():
        pixels = frames = 0
        for blob in blobs:
            with Image.open(io.BytesIO(blob)) as image:
                for frame in ImageSequence.Iterator(image):
                    rgba = frame.convert("RGBA")
                    pixels += rgba.width * rgba.height
                    frames += 1
        counts[0], counts[1] = pixels, frames

    seconds = timed(args.warmup, args.repeat, body)
    report("decode-frames", len(blobs), counts[0] / 1e6, seconds)


def cmd_encode(args, fmt):
    image = load(args.files[0])
    size = [0]

    def body():
        buffer = io.BytesIO()
        if fmt == "jpeg":
            image.save(buffer, "JPEG", quality=args.quality, subsampling="4:2:0", optimize=True)
        elif fmt == "webp":
            image.save(buffer, "WEBP", quality=args.quality, method=args.method)
        else:
            image.save(buffer, "PNG", compress_level=6)
        size[0] = buffer.tell()

    seconds = timed(args.warmup, args.repeat, body)
    report("encode-" + fmt, 1, image.width * image.height / 1e6, seconds, size[0])


def cmd_resize(args):
    image = load(args.files[0])
    width = max(1, round(image.width * args.scale))
    height = max(1, round(image.height * args.scale))
    seconds = timed(args.warmup, args.repeat, lambda: image.resize((width, height), Image.Resampling.LANCZOS))
    report("resize", 1, image.width * image.height / 1e6, seconds)


def thumbnail_one(job):
    source, destination, size, fmt, to_srgb = job
    with Image.open(source) as image:
        image.draft("RGB", (size, size))
        icc = image.info.get("icc_profile")
        image = image.convert("RGB")
        image.thumbnail((size, size), Image.Resampling.LANCZOS)
        if to_srgb and icc:
            # The thumbnail (few pixels) from its embedded profile to sRGB, as pixpipe does; saved untagged.
            from PIL import ImageCms

            source_profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            image = ImageCms.profileToProfile(image, source_profile, ImageCms.createProfile("sRGB"), outputMode="RGB")
        if fmt == "png":
            image.save(destination, "PNG", compress_level=1)
        else:
            image.save(destination, "JPEG", quality=85)


def cmd_thumbnail(args):
    source_dir, out_dir = args.files[0], args.files[1]
    os.makedirs(out_dir, exist_ok=True)
    jobs = []
    for name in sorted(os.listdir(source_dir)):
        stem, _ = os.path.splitext(name)
        extension = ".png" if args.format == "png" else ".jpg"
        jobs.append(
            (os.path.join(source_dir, name), os.path.join(out_dir, stem + extension), args.size, args.format, args.to_srgb)
        )
    with Pool(args.processes) as pool:
        for _ in pool.imap_unordered(thumbnail_one, jobs, chunksize=4):
            pass


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("subcommand", choices=["decode", "decode-frames", "encode-jpeg", "encode-png", "encode-webp", "resize", "thumbnail"])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--quality", type=int, default=85)
    parser.add_argument("--method", type=int, default=4, help="WebP method (0-6)")
    parser.add_argument("--scale", type=float, default=0.5)
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--format", choices=["jpeg", "png"], default="jpeg", help="thumbnail output format")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--to-srgb", action="store_true", help="thumbnail: convert from the embedded profile to sRGB")
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.subcommand == "decode":
        cmd_decode(args)
    elif args.subcommand == "decode-frames":
        cmd_decode_frames(args)
    elif args.subcommand == "encode-jpeg":
        cmd_encode(args, "jpeg")
    elif args.subcommand == "encode-png":
        cmd_encode(args, "png")
    elif args.subcommand == "encode-webp":
        cmd_encode(args, "webp")
    elif args.subcommand == "resize":
        cmd_resize(args)
    else:
        cmd_thumbnail(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
