"""PSNR of thumbnails against a float reference: Pillow's Lanczos resize of the full decode.

The reference for each thumbnail is its source decoded at full size (no draft/DCT scaling),
each channel converted to 32-bit float and resized with Image.Resampling.LANCZOS to the
thumbnail's own size, so only the thumbnailer's error is measured (plus its JPEG encoding).
A thumbnail is matched to its source by file stem: the longest source stem that starts the
thumbnail's stem.
"""

import math
import os

import numpy
from PIL import Image

Image.MAX_IMAGE_PIXELS = None


def _reference(source_path, size):
    with Image.open(source_path) as image:
        image = image.convert("RGB")
        bands = [band.convert("F").resize(size, Image.Resampling.LANCZOS) for band in image.split()]
    return numpy.stack([numpy.asarray(band, dtype=numpy.float64) for band in bands], axis=-1)


def _match(stem, sources):
    candidates = [name for name in sources if stem.startswith(name)]
    return max(candidates, key=len) if candidates else None


def psnr_folder(output_dir, source_dir):
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
        reference = numpy.clip(_reference(sources[source], size), 0, 255)
        mse = float(numpy.mean((pixels - reference) ** 2))
        values.append(99.0 if mse == 0 else 10 * math.log10(255.0**2 / mse))
    if not values:
        return None
    return {"min_db": min(values), "mean_db": sum(values) / len(values), "files": len(values), "unmatched": unmatched}
