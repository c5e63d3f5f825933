"""Builds the benchmark inputs deterministically from the Kodak photos, once per version key.

Everything is derived from the 24 Kodak PNGs with fixed seeds and Pillow's encoders, so two
machines with the same Pillow build the same bytes. The result is cached under
.bench/inputs/<VERSION>-<mode>/ and reused while its `.complete` marker exists; change
VERSION when the recipe changes.

Layout (N6/N24 mosaics, see SIZES):
    mosaic/m6-00.jpg m6-00-prog.jpg m6-00.png ...   3072x2048 (~6 MP)
    mosaic/m24-00.jpg m24-00-prog.jpg m24-00.png ... 6144x4096 (~24 MP)
    encode/m2-00.jpg ...            1536x1024 (~1.5 MP), the encoders' input in --quick
    orig/kodim01.jpg ...            the 24 originals as baseline JPEG (landscape and portrait)
    raw/m2-00.ppm m6-00.ppm m24-00.ppm  decoded baseline JPEG pixels, for cjpeg and pnmtopng
    raw/m6-00.v m24-00.v            the same for vips (its uncompressed format)
    thumbs-src/                     hard links: originals + every mosaic JPEG (the photo folder)
    single-jpeg/ single-png/        hard link to one 24 MP JPEG / PNG (peak memory rows)
    www/small/s0000.jpg ...         ~30 KB JPEG crops of the photos, for the fetch row (pixpipe
                                    verifies what it stores, so the files must be real images)
    www/photos/p0000.jpg ...        768x512 and 1536x1024 JPEG photos, for fetch + thumbnail
    manifest.json                   sizes and megapixels of every file above

The WebP, AVIF and GIF inputs are a second step with its own version (FORMATS_VERSION, marker
.formats-<version>), so adding or changing them does not rebuild the JPEG/PNG inputs above:
    formats/webp-lossy/m6-00.webp ...   the mosaics as lossy WebP (Pillow, quality 85, method 4)
    formats/webp-lossless/m2-00.webp    a mosaic as lossless WebP (m6-00 in full mode)
    formats/avif/m2-00.avif             a mosaic as 8-bit 4:2:0 AVIF (avifenc, aom, one thread, fixed
                                        quantizers; m6-00 in full mode)
    formats/gif/pan-00.gif              an animated GIF: a window panning over a Kodak photo mosaic,
                                        every frame quantized to its own palette by Pillow
    thumbs-src-webp/                    the photo folder (originals + baseline mosaics) as lossy WebP q85

The camera formats are a third step (CAMERA_VERSION, marker .camera-<version>), made with the
reference tools of the libraries pixpipe uses (heif-enc 1.15 with x265, cjxl 0.7, vips/libtiff 4.5) from
12 MP (4032x3024, a phone's size) crops of Kodak mosaics:
    formats/heic/c12-00.heic            8-bit 4:2:0 HEIC, heif-enc -q 80 (x265, one frame thread)
    formats/jxl/c12-00.jxl              lossy JPEG XL, cjxl -d 1 (VarDCT, effort 7)
    formats/tiff/c12-00-deflate.tif     striped RGB TIFF, Deflate with the horizontal predictor (vips tiffsave)
    formats/tiff/c12-00-lzw.tif         the same with LZW
    thumbs-src-heic/c12-NN.heic         10-bit Display P3 HEICs (the corpora's heif/display-p3.icc; pixels
                                        converted to P3 by vips icc_transform), heif-enc -b 10 -q 80, one
                                        coded image each: heif-enc 1.15 cannot write the 512x512 grids of a phone
    thumbs-src-jxl/c12-NN.jxl           lossy JPEG XL photos, cjxl -d 1 (VarDCT: the 1/8 DC image comes first;
                                        cjxl 0.7 writes the same bytes with -p)
    tiff-huge/h20000.tif                one 20,000 x 20,000 striped LZW RGB TIFF (a replicated Kodak mosaic,
                                        vips tiffsave), in both modes; its own marker .huge-tiff-<side>

The HEICs carrying a thumbnail image are a fourth step (HEIC_THUMB_VERSION, marker .heic-thumb-<version>):
    thumbs-src-heic-thumb/c12-NN.heic   the thumbs-src-heic recipe (same photos, 10-bit Display P3,
                                        heif-enc -b 10 -q 80) plus -t 320: a 320x240 'thmb' item beside the
                                        primary, as phones store one
"""

import json
import os
import random
import shutil
import subprocess

from PIL import Image

VERSION = "v3"
TILE = (768, 512)
SIZES = {
    # mode: (6 MP mosaics, 24 MP mosaics, small files, photos)
    "quick": (1, 1, 500, 120),
    "full": (4, 2, 2000, 1000),
}
JPEG_QUALITY = 90
FORMATS_VERSION = "f1"
# mode: (lossy WebP mosaics, lossless WebP / AVIF mosaic, GIF frames, GIF canvas)
FORMAT_SIZES = {
    "quick": (["m6-00"], "m2-00", 12, (640, 400)),
    "full": (["m6-00", "m6-01", "m24-00"], "m6-00", 40, (800, 500)),
}
WEBP_QUALITY = 85
CAMERA_VERSION = "k1"
# mode: (HEIC photos in the folder, JPEG XL photos in the folder)
CAMERA_SIZES = {
    "quick": (3, 3),
    "full": (8, 8),
}
# The side of the huge striped TIFF, in both modes: the size its memory and speed targets are set for. It
# has its own marker, so changing it rebuilds that file alone.
HUGE_TIFF_SIDE = 20000
CAMERA_SIZE = (4032, 3024)
HEIC_THUMB_VERSION = "t1"
# The side of the square heif-enc -t fits the thumbnail image into (4032x3024 gives 320x240).
HEIC_THUMB_SIDE = 320


def _tiles(corpus):
    """The Kodak photos as landscape RGB tiles, in file-name order."""
    names = sorted(name for name in os.listdir(corpus) if name.endswith(".png"))
    if len(names) < 4:
        raise SystemExit(f"bench: expected the Kodak PNGs in {corpus}, found {len(names)}")
    tiles = []
    for name in names:
        with Image.open(os.path.join(corpus, name)) as image:
            image = image.convert("RGB")
            if image.height > image.width:
                image = image.transpose(Image.Transpose.ROTATE_90)
            tiles.append((name, image.resize(TILE) if image.size != TILE else image.copy()))
    return tiles


def _mosaic(tiles, columns, rows, seed):
    """A columns x rows mosaic of shuffled, sometimes mirrored tiles."""
    generator = random.Random(seed)
    canvas = Image.new("RGB", (columns * TILE[0], rows * TILE[1]))
    for row in range(rows):
        for column in range(columns):
            _, tile = generator.choice(tiles)
            if generator.random() < 0.5:
                tile = tile.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
            canvas.paste(tile, (column * TILE[0], row * TILE[1]))
    return canvas


def _save_variants(image, directory, stem, manifest):
    encodings = [
        (f"{stem}.jpg", dict(format="JPEG", quality=JPEG_QUALITY)),
        (f"{stem}-prog.jpg", dict(format="JPEG", quality=JPEG_QUALITY, progressive=True)),
        (f"{stem}.png", dict(format="PNG", compress_level=6)),
    ]
    for name, options in encodings:
        path = os.path.join(directory, name)
        image.save(path, **options)
        manifest[os.path.relpath(path, os.path.dirname(directory))] = _entry(path, image)


def _entry(path, image):
    return {"bytes": os.path.getsize(path), "width": image.width, "height": image.height}


def _link_into(directory, sources):
    os.makedirs(directory, exist_ok=True)
    for source in sources:
        os.link(source, os.path.join(directory, os.path.basename(source)))


def _build(root, corpus, mode, log):
    mosaics6, mosaics24, small_count, photo_count = SIZES[mode]
    tiles = _tiles(corpus)
    manifest = {}
    for folder in ("mosaic", "orig", "raw", "encode", "www/small", "www/photos"):
        os.makedirs(os.path.join(root, folder), exist_ok=True)

    log(f"inputs: {len(tiles)} originals as JPEG q{JPEG_QUALITY}")
    for name, _ in tiles:
        with Image.open(os.path.join(corpus, name)) as image:
            image = image.convert("RGB")
            path = os.path.join(root, "orig", name.replace(".png", ".jpg"))
            image.save(path, "JPEG", quality=JPEG_QUALITY)
            manifest[os.path.relpath(path, root)] = _entry(path, image)

    plan = [("m6", 4, 4, index) for index in range(mosaics6)] + [("m24", 8, 8, index) for index in range(mosaics24)]
    # One ~1.5 MP mosaic, the encoders' input in --quick; not part of the photo folder.
    plan.append(("m2", 2, 2, 0))
    for prefix, columns, rows, index in plan:
        stem = f"{prefix}-{index:02d}"
        log(f"inputs: mosaic {stem} ({columns * TILE[0]}x{rows * TILE[1]}), JPEG, progressive JPEG, PNG")
        image = _mosaic(tiles, columns, rows, seed=1000 * columns + index)
        folder = "encode" if prefix == "m2" else "mosaic"
        _save_variants(image, os.path.join(root, folder), stem, manifest)
        if index == 0:
            # Encoder and resizer inputs hold the baseline JPEG's decoded pixels, so every side
            # (cjpeg/pnmtopng/vips reading PPM or .v, Pillow and pixpipe decoding the JPEG)
            # starts from the same pixels.
            with Image.open(os.path.join(root, folder, f"{stem}.jpg")) as decoded:
                decoded = decoded.convert("RGB")
                raw = os.path.join(root, "raw", f"{stem}.ppm")
                decoded.save(raw, "PPM")
                manifest[os.path.relpath(raw, root)] = _entry(raw, decoded)
            if prefix != "m2" and shutil.which("vips"):
                subprocess.run(["vips", "copy", raw, os.path.join(root, "raw", f"{stem}.v")], check=True)

    mosaic_jpegs = sorted(
        os.path.join(root, "mosaic", name) for name in os.listdir(os.path.join(root, "mosaic")) if name.endswith(".jpg")
    )
    originals = sorted(os.path.join(root, "orig", name) for name in os.listdir(os.path.join(root, "orig")))
    _link_into(os.path.join(root, "thumbs-src"), originals + mosaic_jpegs)
    _link_into(os.path.join(root, "single-jpeg"), [os.path.join(root, "mosaic", "m24-00.jpg")])
    _link_into(os.path.join(root, "single-png"), [os.path.join(root, "mosaic", "m24-00.png")])

    log(f"inputs: {small_count} small JPEGs of ~30 KB")
    generator = random.Random(30)
    for index in range(small_count):
        _, tile = generator.choice(tiles)
        left = generator.randint(0, tile.width - 320)
        top = generator.randint(0, tile.height - 240)
        path = os.path.join(root, "www", "small", f"s{index:04d}.jpg")
        tile.crop((left, top, left + 320, top + 240)).save(path, "JPEG", quality=90)

    log(f"inputs: {photo_count} photos (768x512 and 1536x1024 JPEG)")
    for index in range(photo_count):
        generator = random.Random(5000 + index)
        if index % 3 == 2:
            image = _mosaic(tiles, 2, 2, seed=7000 + index)
        else:
            _, image = generator.choice(tiles)
            if generator.random() < 0.5:
                image = image.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        path = os.path.join(root, "www", "photos", f"p{index:04d}.jpg")
        image.save(path, "JPEG", quality=generator.choice([80, 85, 90, 95]))

    with open(os.path.join(root, "manifest.json"), "w") as handle:
        json.dump(manifest, handle, indent=1, sort_keys=True)


def _mosaic_png(root, stem):
    folder = "encode" if stem.startswith("m2-") else "mosaic"
    return os.path.join(root, folder, f"{stem}.png")


def _build_formats(root, mode, log):
    """WebP, AVIF and GIF inputs from the PNG mosaics and the originals already in root."""
    lossy, single, frame_count, canvas = FORMAT_SIZES[mode]
    entries = manifest(root)
    for folder in ("formats/webp-lossy", "formats/webp-lossless", "formats/avif", "formats/gif", "thumbs-src-webp"):
        shutil.rmtree(os.path.join(root, folder), ignore_errors=True)
        os.makedirs(os.path.join(root, folder))

    def add(path, image):
        entries[os.path.relpath(path, root)] = _entry(path, image)

    log(f"inputs: lossy WebP q{WEBP_QUALITY} of {', '.join(lossy)}; lossless WebP and AVIF of {single}")
    for stem in lossy:
        with Image.open(_mosaic_png(root, stem)) as image:
            path = os.path.join(root, "formats", "webp-lossy", f"{stem}.webp")
            image.save(path, "WEBP", quality=WEBP_QUALITY, method=4)
            add(path, image)
    with Image.open(_mosaic_png(root, single)) as image:
        path = os.path.join(root, "formats", "webp-lossless", f"{single}.webp")
        image.save(path, "WEBP", lossless=True, quality=80, method=4)
        add(path, image)
        # libavif's own encoder, one thread and fixed quantizers, so the bytes do not depend on the machine.
        path = os.path.join(root, "formats", "avif", f"{single}.avif")
        subprocess.run(
            ["avifenc", "-j", "1", "-c", "aom", "-s", "6", "-y", "420", "-d", "8", "--min", "20", "--max", "30",
             _mosaic_png(root, single), path],
            check=True, stdout=subprocess.DEVNULL,
        )
        add(path, image)

    log(f"inputs: animated GIF, {frame_count} frames of {canvas[0]}x{canvas[1]}")
    with Image.open(_mosaic_png(root, "m2-00")) as source:
        source = source.convert("RGB")
        frames = []
        for index in range(frame_count):
            # A diagonal pan: consecutive frames overlap, so Pillow stores only the changed rectangle of most.
            left = (source.width - canvas[0]) * index // max(1, frame_count - 1)
            top = (source.height - canvas[1]) * index // max(1, frame_count - 1)
            frame = source.crop((left, top, left + canvas[0], top + canvas[1]))
            frames.append(frame.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))
        path = os.path.join(root, "formats", "gif", "pan-00.gif")
        frames[0].save(path, "GIF", save_all=True, append_images=frames[1:], duration=80, loop=0)
        entries[os.path.relpath(path, root)] = {
            "bytes": os.path.getsize(path), "width": canvas[0], "height": canvas[1], "frames": frame_count,
        }

    # The photo folder of the thumbnail rows, as WebP: the originals and the baseline JPEG mosaics' pixels.
    sources = [os.path.join(root, "orig", name) for name in sorted(os.listdir(os.path.join(root, "orig")))]
    sources += sorted(
        os.path.join(root, "mosaic", name) for name in os.listdir(os.path.join(root, "mosaic"))
        if name.endswith(".png")
    )
    log(f"inputs: {len(sources)} photos as WebP q{WEBP_QUALITY} for the WebP thumbnail folder")
    for source in sources:
        with Image.open(source) as image:
            image = image.convert("RGB")
            stem, _ = os.path.splitext(os.path.basename(source))
            path = os.path.join(root, "thumbs-src-webp", f"{stem}.webp")
            image.save(path, "WEBP", quality=WEBP_QUALITY, method=4)
            add(path, image)
    with open(os.path.join(root, "manifest.json"), "w") as handle:
        json.dump(entries, handle, indent=1, sort_keys=True)


def _camera_photos(corpus, count):
    """count 12 MP photos (4032x3024 crops of 6x6 Kodak mosaics), as RGB images, one at a time."""
    tiles = _tiles(corpus)
    for index in range(count):
        yield _mosaic(tiles, 6, 6, seed=90000 + index).crop((0, 0) + CAMERA_SIZE)


def _run(argv):
    """Runs a tool quietly; its output is shown only when it fails."""
    result = subprocess.run(argv, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"bench: {' '.join(argv)} exited {result.returncode}:\n{result.stdout}{result.stderr}")


def _build_camera(root, corpus, mode, log):
    """HEIC, JPEG XL and TIFF inputs made by the libraries' own tools from 12 MP Kodak mosaics."""
    heic_count, jxl_count = CAMERA_SIZES[mode]
    missing = [tool for tool in ("heif-enc", "cjxl", "vips") if not shutil.which(tool)]
    if missing:
        raise SystemExit(f"bench: the camera inputs need {', '.join(missing)} (scripts/bootstrap installs them)")
    profile = os.path.join(os.path.dirname(corpus), "heif", "display-p3.icc")
    if not os.path.exists(profile):
        raise SystemExit(f"bench: the camera inputs need the Display P3 profile at {profile}")
    entries = manifest(root)
    folders = ("formats/heic", "formats/jxl", "formats/tiff", "thumbs-src-heic", "thumbs-src-jxl", "camera-tmp")
    for folder in folders:
        shutil.rmtree(os.path.join(root, folder), ignore_errors=True)
        os.makedirs(os.path.join(root, folder))
    tmp = os.path.join(root, "camera-tmp")

    def add(path, width, height):
        entries[os.path.relpath(path, root)] = {"bytes": os.path.getsize(path), "width": width, "height": height}

    width, height = CAMERA_SIZE
    log(f"inputs: {max(heic_count, jxl_count)} photos of {width}x{height} as HEIC (10-bit P3) and JPEG XL; "
        "one as 8-bit HEIC, JPEG XL d1 and TIFF")
    for index, image in enumerate(_camera_photos(corpus, max(heic_count, jxl_count, 1))):
        stem = f"c12-{index:02d}"
        png = os.path.join(tmp, f"{stem}.png")
        image.save(png, "PNG", compress_level=1)
        if index == 0:
            heic = os.path.join(root, "formats", "heic", f"{stem}.heic")
            # One frame thread: x265's output then does not depend on the machine's cores.
            _run(["heif-enc", "-q", "80", "-p", "x265:frame-threads=1", "-o", heic, png])
            add(heic, width, height)
            jxl = os.path.join(root, "formats", "jxl", f"{stem}.jxl")
            _run(["cjxl", png, jxl, "-d", "1"])
            add(jxl, width, height)
            for compression, options in (("deflate", "compression=deflate,predictor=horizontal"),
                                         ("lzw", "compression=lzw")):
                tiff = os.path.join(root, "formats", "tiff", f"{stem}-{compression}.tif")
                _run(["vips", "copy", png, f"{tiff}[{options}]"])
                add(tiff, width, height)
        if index < heic_count:
            heic = os.path.join(root, "thumbs-src-heic", f"{stem}.heic")
            _p3_heic(png, heic, profile, tmp, stem)
            add(heic, width, height)
        if index < jxl_count:
            jxl = os.path.join(root, "thumbs-src-jxl", f"{stem}.jxl")
            _run(["cjxl", png, jxl, "-d", "1"])
            add(jxl, width, height)
        for name in os.listdir(tmp):
            os.remove(os.path.join(tmp, name))

    shutil.rmtree(tmp)
    with open(os.path.join(root, "manifest.json"), "w") as handle:
        json.dump(entries, handle, indent=1, sort_keys=True)


def _build_huge_tiff(root, side, log):
    """One side x side striped LZW RGB TIFF: a Kodak mosaic replicated by vips, then cropped."""
    entries = manifest(root)
    folder = os.path.join(root, "tiff-huge")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    log(f"inputs: one {side} x {side} striped LZW TIFF (a Kodak mosaic replicated)")
    mosaic = _mosaic_png(root, "m6-00")
    replicated = os.path.join(folder, "replicated.v")
    _run(["vips", "replicate", mosaic, replicated, str(-(-side // 3072)), str(-(-side // 2048))])
    huge = os.path.join(folder, f"h{side}.tif")
    _run(["vips", "crop", replicated, f"{huge}[compression=lzw]", "0", "0", str(side), str(side)])
    os.remove(replicated)
    entries = {path: entry for path, entry in entries.items() if not path.startswith("tiff-huge/")}
    entries[os.path.relpath(huge, root)] = {"bytes": os.path.getsize(huge), "width": side, "height": side}
    with open(os.path.join(root, "manifest.json"), "w") as handle:
        json.dump(entries, handle, indent=1, sort_keys=True)


def _p3_heic(png, heic, profile, tmp, stem, extra=()):
    """`png` (sRGB) as a 10-bit Display P3 HEIC with the profile embedded, the thumbs-src-heic recipe."""
    # 16-bit P3 pixels with the profile embedded: heif-enc writes 10 bits and the ICC profile.
    p3 = os.path.join(tmp, f"{stem}-p3.v")
    _run(["vips", "icc_transform", png, p3, profile, "--input-profile", "srgb", "--depth", "16", "--embedded"])
    p3_png = os.path.join(tmp, f"{stem}-p3.png")
    _run(["vips", "pngsave", p3, p3_png, "--compression", "1", "--profile", profile])
    _run(["heif-enc", "-b", "10", "-q", "80", "-p", "x265:frame-threads=1", *extra, "-o", heic, p3_png])


def _build_heic_thumb(root, corpus, mode, log):
    """The thumbs-src-heic photos again, each with a 320x240 thumbnail image (heif-enc -t)."""
    heic_count = CAMERA_SIZES[mode][0]
    profile = os.path.join(os.path.dirname(corpus), "heif", "display-p3.icc")
    if not shutil.which("heif-enc") or not shutil.which("vips") or not os.path.exists(profile):
        raise SystemExit("bench: the HEIC thumbnail inputs need heif-enc, vips and the corpora's display-p3.icc")
    entries = manifest(root)
    folder = os.path.join(root, "thumbs-src-heic-thumb")
    tmp = os.path.join(root, "heic-thumb-tmp")
    for path in (folder, tmp):
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
    width, height = CAMERA_SIZE
    log(f"inputs: {heic_count} HEIC photos (10-bit P3) with a {HEIC_THUMB_SIDE} px thumbnail image")
    for index, image in enumerate(_camera_photos(corpus, heic_count)):
        stem = f"c12-{index:02d}"
        png = os.path.join(tmp, f"{stem}.png")
        image.save(png, "PNG", compress_level=1)
        heic = os.path.join(folder, f"{stem}.heic")
        _p3_heic(png, heic, profile, tmp, stem, extra=("-t", str(HEIC_THUMB_SIDE)))
        entries[os.path.relpath(heic, root)] = {"bytes": os.path.getsize(heic), "width": width, "height": height}
        for name in os.listdir(tmp):
            os.remove(os.path.join(tmp, name))
    shutil.rmtree(tmp)
    with open(os.path.join(root, "manifest.json"), "w") as handle:
        json.dump(entries, handle, indent=1, sort_keys=True)


def prepare(bench_dir, corpus, mode, log=print):
    """Returns the input folder for mode ("quick" or "full"), building it when not cached."""
    root = os.path.join(bench_dir, "inputs", f"{VERSION}-{mode}")
    if not os.path.exists(os.path.join(root, ".complete")):
        if os.path.exists(root):
            shutil.rmtree(root)
        os.makedirs(root)
        _build(root, corpus, mode, log)
        open(os.path.join(root, ".complete"), "w").close()
    formats_marker = os.path.join(root, f".formats-{FORMATS_VERSION}")
    if not os.path.exists(formats_marker):
        for old in os.listdir(root):
            if old.startswith(".formats-"):
                os.remove(os.path.join(root, old))
        _build_formats(root, mode, log)
        open(formats_marker, "w").close()
    camera_marker = os.path.join(root, f".camera-{CAMERA_VERSION}")
    if not os.path.exists(camera_marker):
        for old in os.listdir(root):
            if old.startswith(".camera-"):
                os.remove(os.path.join(root, old))
        _build_camera(root, corpus, mode, log)
        open(camera_marker, "w").close()
    huge_marker = os.path.join(root, f".huge-tiff-{HUGE_TIFF_SIDE}")
    if not os.path.exists(huge_marker):
        for old in os.listdir(root):
            if old.startswith(".huge-tiff-"):
                os.remove(os.path.join(root, old))
        _build_huge_tiff(root, HUGE_TIFF_SIDE, log)
        open(huge_marker, "w").close()
    heic_thumb_marker = os.path.join(root, f".heic-thumb-{HEIC_THUMB_VERSION}")
    if not os.path.exists(heic_thumb_marker):
        for old in os.listdir(root):
            if old.startswith(".heic-thumb-"):
                os.remove(os.path.join(root, old))
        _build_heic_thumb(root, corpus, mode, log)
        open(heic_thumb_marker, "w").close()
    return root


def manifest(root):
    with open(os.path.join(root, "manifest.json")) as handle:
        return json.load(handle)


def megapixels(root, relative_paths, entries=None):
    """Megapixels of the files named (relative to root), from the manifest."""
    entries = entries or manifest(root)
    # An animation's megapixels are those of every frame's canvas.
    return sum(
        entries[path]["width"] * entries[path]["height"] * entries[path].get("frames", 1) for path in relative_paths
    ) / 1e6


def warm_page_cache(root):
    """Reads every input once so the first side measured does not pay for cold disk reads."""
    for directory, _, names in os.walk(root):
        for name in names:
            with open(os.path.join(directory, name), "rb") as handle:
                while handle.read(1 << 20):
                    pass
