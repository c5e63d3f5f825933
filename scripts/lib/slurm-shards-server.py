"""A local image server for scripts/slurm-shards-test: serves N distinct PNGs and counts requests per path.

  python3 slurm-shards-server.py COUNT PORT_FILE [GATED_SHARD COPIES]
Writes the kernel-picked port to PORT_FILE once listening. GET /img/K.png is image K (0 <= K < COUNT);
GET /counts answers with a JSON object of path -> requests so far (itself not counted), and
"gate-timeouts" when a gate gave up.

With GATED_SHARD and COPIES, each image of that shard of 4 (pixpipe's rule: the first 8 bytes of the
SHA-256 of the URL, big-endian, modulo 4) is answered only once COPIES requests for it have arrived, so the
copies of that shard are surely downloading the same items at the same moment: the race a duplicate shard
brings, made certain instead of left to the scheduler. A gate gives up after 30 s (a safety net, not a
timing assumption: the copies arrive within a second) and answers 503, which fails the caller's checks.
"""

import hashlib
import http.server
import json
import struct
import sys
import threading
import zlib


def png(seed: int) -> bytes:
    """An 8x8 RGB PNG whose pixels depend on seed, so every image has its own bytes and SHA-256."""
    width = height = 8
    rows = b"".join(
        b"\x00" + bytes(((seed * 7 + x * 31 + y * 17 + c * 5) % 256) for x in range(width) for c in range(3))
        for y in range(height)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


count = int(sys.argv[1])
gated_shard = int(sys.argv[3]) if len(sys.argv) > 3 else None
copies = int(sys.argv[4]) if len(sys.argv) > 4 else 1
images = {f"/img/{k}.png": png(k) for k in range(count)}
requests: dict[str, int] = {}
gate_timeouts = 0
arrived = threading.Condition()
base = ""


def gated(path: str) -> bool:
    """Whether path's URL falls in the gated shard."""
    if gated_shard is None or path not in images:
        return False
    digest = hashlib.sha256((base + path).encode()).digest()
    return int.from_bytes(digest[:8], "big") % 4 == gated_shard


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
        global gate_timeouts
        if self.path == "/counts":
            with arrived:
                report = dict(requests)
                if gate_timeouts:
                    report["gate-timeouts"] = gate_timeouts
                self.answer(200, json.dumps(report).encode(), "application/json")
            return
        with arrived:
            requests[self.path] = requests.get(self.path, 0) + 1
            arrived.notify_all()
            if gated(self.path) and not arrived.wait_for(lambda: requests[self.path] >= copies, timeout=30):
                gate_timeouts += 1
                self.answer(503, b"gate timed out", "text/plain")
                return
        body = images.get(self.path)
        if body is None:
            self.answer(404, b"not found", "text/plain")
        else:
            self.answer(200, body, "image/png")

    def answer(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
base = f"http://127.0.0.1:{server.server_address[1]}"
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
import os  # noqa: E402 (only for the atomic rename that tells the caller the port is ready)

os.rename(sys.argv[2] + ".tmp", sys.argv[2])
server.serve_forever()
