"""PSNR of thumbnails against a float reference: Pillow's Lanczos resize of the full decode.

How it is measured:
- The thumbnails compared are lossless PNGs that each side writes in a separate, untimed run
  (bench.py `psnr_pass`; pixpipe `--format png`, vipsthumbnail `-o %s.png`, Pillow `save(PNG)`).
  The timed runs write JPEG q85, whose quantization alone costs 30-34 dB on these photos and would
  hide the resampler's own error.
- The reference for each thumbnail is its source decoded at full size (no draft/DCT scaling),
  each channel converted to 32-bit float and resized with Image.Resampling.LANCZOS (Lanczos-3,
  widened by the downscale factor) to the thumbnail's own size, never rounded to 8 bits.
- PSNR = 10 log10(255^2 / MSE) over all pixels and the three channels; identical images count 99 dB.
- A thumbnail is matched to its source by file stem: the longest source stem that starts the
  thumbnail's stem.
References take seconds per 24 MP photo, so they are cached as .npy files (keyed by the source's
path, size and mtime, and the thumbnail size) in the cache folder given, which survives runs.
"""

import hashlib
import math
import os

import numpy
from PIL import Image

Image.MAX_IMAGE_PIXELS = None


def _compute_reference(source_path, size):
    with Image.open(source_path) as image:
        image = image.convert("RGB")
        bands = [band.convert("F").resize(size, Image.Resampling.LANCZOS) for band in image.split()]
    return numpy.stack([numpy.asarray(band, dtype=numpy.float32) for band in bands], axis=-1)


def _reference(source_path, size, cache_dir):
    if cache_dir is None:
        return _compute_reference(source_path, size)
    stat = os.stat(source_path)
    key = f"{os.path.abspath(source_path)}|{stat.st_size}|{stat.st_mtime_ns}|{size[0]}x{size[1]}"
    digest = hashlib.sha1(key.encode()).hexdigest()[:16]
    stem = os.path.splitext(os.path.basename(source_path))[0]
    path = os.path.join(cache_dir, f"{stem}-{size[0]}x{size[1]}-{digest}.npy")
    if os.path.exists(path):
        return numpy.load(path)
    reference = _compute_reference(source_path, size)
    os.makedirs(cache_dir, exist_ok=True)
    numpy.save(path + ".tmp.npy", reference)
    os.replace(path + ".tmp.npy", path)
    return reference


def _match(stem, sources):
    candidates = [name for name in sources if stem.startswith(name)]
    return max(candidates, key=len) if candidates else None


def psnr_folder(output_dir, source_dir, cache_dir=None):
    """{"min_db", "mean_db", "files", "unmatched"} for every image in output_dir, or None if empty."""
    sources = {os.path.splitext(name)[0]: os.path.join(source_dir, name) for name in os.listdir(source_dir)}
    values = []
    unmatched = 0
    for name in sorted(os.listdir(output_dir)):
        path = os.path.join(output_dir, name)
        if not os.path.isfile(path):
            continue
        source = _match(os.path.splitext(name)[0], sources)
        if source is None:
            unmatched += 1
            continue
        with Image.open(path) as thumbnail:
            pixels = numpy.asarray(thumbnail.convert("RGB"), dtype=numpy.float64)
            size = thumbnail.size
        reference = numpy.clip(_reference(sources[source], size, cache_dir).astype(numpy.float64), 0, 255)
        mse = float(numpy.mean((pixels - reference) ** 2))
        values.append(99.0 if mse == 0 else 10 * math.log10(255.0**2 / mse))
    if not values:
        return None
    return {"min_db": min(values), "mean_db": sum(values) / len(values), "files": len(values), "unmatched": unmatched}
