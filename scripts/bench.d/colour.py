"""The colour row: thumbnailing a folder of Display P3 photos to sRGB.

The inputs are the photo folder of the thumbnail-folder row (thumbs-src/) with its pixels converted to Display
P3 and the profile embedded, made by `pixpipe convert --profile p3` (Little CMS builds the profile from the
published primaries; no profile file is shipped). They are cached beside the other inputs under the marker
`.colour-<COLOUR_VERSION>`; the bytes depend on the pixpipe that made them, so remove the marker to remake them.

Sides: vipsthumbnail exporting sRGB (libvips 8.14 converts only when asked with --export-profile; `strip` in
the output options drops the profile it would embed, as pixpipe writes none), Pillow with ImageCms converting each thumbnail from its embedded
profile to sRGB, pixpipe's default (sRGB, no profile), and pixpipe --keep-profile on the same folder, the
cost of the same work without conversion.
"""

import os
import shutil
import subprocess

from model import Comparison, Side, Target

COLOUR_VERSION = "c1"


def prepare(root, pixpipe, log):
    """Returns the Display P3 photo folder, making it when its marker is missing; None without pixpipe."""
    folder = os.path.join(root, "thumbs-src-p3")
    marker = os.path.join(root, f".colour-{COLOUR_VERSION}")
    if os.path.exists(marker):
        return folder
    if not pixpipe:
        return None
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    source = os.path.join(root, "thumbs-src")
    names = sorted(name for name in os.listdir(source) if name.endswith(".jpg"))
    log(f"inputs: {len(names)} photos converted to Display P3 (pixpipe convert --profile p3, JPEG q90)")
    for name in names:
        subprocess.run(
            [pixpipe, "convert", os.path.join(source, name), os.path.join(folder, name), "--profile", "p3",
             "--quality", "90"],
            check=True, stdout=subprocess.DEVNULL,
        )
    open(marker, "w").close()
    return folder


def build(ctx, py, work, log=print):
    """The thumbnail-folder-p3 comparison, or nothing when the inputs cannot be made."""
    pixpipe = ctx.pixpipe or "pixpipe"
    source = prepare(ctx.inputs, ctx.pixpipe, log)
    if source is None:
        return []
    count = len(os.listdir(source))
    name = "thumbnail-folder-p3"
    vips_out = "%s.jpg[Q=85,optimize_coding,strip]"

    def pixpipe_side(side, *extra):
        return Side(
            side,
            [pixpipe, "thumbnail", source, "--out", work(name, side), "--size", "256", "--format", "jpeg", *extra],
            out_dir=work(name, side),
            is_pixpipe=True,
            pixpipe_subcommand="thumbnail",
        )

    return [
        Comparison(
            name=name,
            title=f"thumbnail a folder of {count} Display P3 photos to 256 px sRGB, all cores",
            # The same sizes as the thumbnail-folder photos they were made from (originals and mosaics).
            work={"megapixels": ctx.megapixels(
                [("orig/" if n.startswith("kodim") else "mosaic/") + n for n in sorted(os.listdir(source))]),
                "files": count},
            sides=[
                Side(
                    "vipsthumbnail",
                    ["sh", "-c",
                     'ls -1 "$1"/* | xargs -P 2 -n 8 vipsthumbnail -s 256 --export-profile srgb -o "$2/'
                     + vips_out + '"', "sh", source, work(name, "vipsthumbnail")],
                    out_dir=work(name, "vipsthumbnail"),
                    requires=("vipsthumbnail",),
                ),
                Side(
                    "Pillow+ImageCms",
                    py + ["thumbnail", source, work(name, "Pillow+ImageCms"), "--size", "256", "--processes", "2",
                          "--format", "jpeg", "--to-srgb"],
                    out_dir=work(name, "Pillow+ImageCms"),
                ),
                pixpipe_side("pixpipe"),
                pixpipe_side("pixpipe --keep-profile", "--keep-profile"),
            ],
            targets=[
                Target("vipsthumbnail", "time", 1.0, "faster than vipsthumbnail"),
                Target("Pillow+ImageCms", "time", 1.0, "faster than Pillow with ImageCms"),
                Target("pixpipe --keep-profile", "time", 1 / 1.1, "within 10% of the same folder without conversion"),
            ],
            expected_files=count,
            throughput="files/s",
            memory="tree",
            note=("The thumbnail-folder photos converted to Display P3 with the profile embedded. Timed runs write "
                  "JPEG q85 in sRGB: vipsthumbnail --export-profile srgb through xargs -P 2, Pillow draft() + "
                  "thumbnail() + ImageCms.profileToProfile to sRGB in a pool of 2 processes, pixpipe its default "
                  "(sRGB, no profile); 'pixpipe --keep-profile' is the same work without the conversion."),
        )
    ]
