#!/usr/bin/env python3
"""A folder that looks like a finished fetch-scale run, to time and profile a resumed run in seconds.

    python3 scripts/bench.d/resume_fixture.py DIR [COUNT]      (COUNT: 200000 by default)

Writes DIR/list.txt (COUNT URLs of the fetch-scale row's shape, `http://127.0.0.1:9/scale/NNNNNN-tKKK.jpg`),
DIR/out/NNNNNN-tKKK.jpg (1,500 random bytes each, seeded) and DIR/out/manifest.jsonl (one `ok` line per
URL with the file's size and SHA-256, as pixpipe writes them). Then

    pixpipe fetch DIR/list.txt --out DIR/out --concurrency 32 --per-host 32

skips every item as already done without opening a connection (port 9 is never contacted), so its time
is a resumed run's start-up over a COUNT-line manifest: what the fetch-scale row's "resumed, all done"
side measures, without the minutes-long first run. Put DIR on tmpfs (/dev/shm) so the disk is not timed.
"""

import hashlib
import json
import os
import random
import sys

SIZE = 1500
TINY_FILES = 300


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    root = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) == 3 else 200_000
    out = os.path.join(root, "out")
    os.makedirs(out, exist_ok=True)
    generator = random.Random(18)
    with open(os.path.join(root, "list.txt"), "w") as urls, open(os.path.join(out, "manifest.jsonl"), "w") as manifest:
        for index in range(count):
            name = f"{index:06d}-t{index % TINY_FILES:03d}.jpg"
            url = f"http://127.0.0.1:9/scale/{name}"
            body = generator.randbytes(SIZE)
            with open(os.path.join(out, name), "wb") as handle:
                handle.write(body)
            record = {"url": url, "name": name, "status": "ok", "httpStatus": 200, "bytes": SIZE,
                      "sha256": hashlib.sha256(body).hexdigest(), "width": 64, "height": 48, "format": "jpeg",
                      "attempts": 1, "elapsed": 0.012}
            manifest.write(json.dumps(record, separators=(",", ":")).replace("\\/", "/") + "\n")
            urls.write(url + "\n")


if __name__ == "__main__":
    main()
