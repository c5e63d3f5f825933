"""nginx on 127.0.0.1 for the fetch comparisons: configured, started and stopped by its pid.

Use as a context manager; the server is stopped on exit even when the body raises:

    with Nginx(bench_dir, www_root) as server:
        server.url("small/s0000.bin")
"""

import os
import shutil
import signal
import socket
import subprocess
import time

CONFIG = """\
# Written by scripts/bench; regenerated on every run.
{user}worker_processes 2;
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{
    worker_connections 1024;
}}
http {{
    access_log off;
    # The fetch-rate row reads each request's arrival time and host name from this log (its location only).
    log_format arrivals '$msec $host';
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65;
    keepalive_requests 100000;
    default_type application/octet-stream;
    client_body_temp_path {prefix}/tmp/body;
    proxy_temp_path {prefix}/tmp/proxy;
    fastcgi_temp_path {prefix}/tmp/fastcgi;
    uwsgi_temp_path {prefix}/tmp/uwsgi;
    scgi_temp_path {prefix}/tmp/scgi;
    types {{
        image/jpeg jpg;
        image/png png;
    }}
    server {{
        listen 127.0.0.1:{port};
        root {root};
        # The fetch-scale row's URLs: /scale/NNNNNN-tKKK.jpg is tiny/tKKK.jpg, so 300 files serve any
        # number of distinct URLs (and names).
        location /scale/ {{
            rewrite ^/scale/[0-9]+-(t[0-9]+[.]jpg)$ /tiny/$1 break;
        }}
        # The fetch-rate row's URLs, the same tiny files, each request logged with its arrival time.
        location /rate/ {{
            access_log {prefix}/rate-arrivals.log arrivals;
            rewrite ^/rate/[0-9]+-(t[0-9]+[.]jpg)$ /tiny/$1 break;
        }}
    }}
}}
"""


def free_port():
    """A port the kernel says is free now (bind to port 0, read it, close)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Nginx:
    """An nginx master process serving www_root; stopped by pid in __exit__."""

    def __init__(self, bench_dir, www_root):
        self.prefix = os.path.abspath(os.path.join(bench_dir, "nginx"))
        self.root = os.path.abspath(www_root)
        self.port = None
        self.process = None

    def rate_log_path(self):
        """The log of the requests under /rate/: one line per request, `ARRIVAL-SECONDS HOST`."""
        return os.path.join(self.prefix, "rate-arrivals.log")

    def url(self, path):
        return f"http://127.0.0.1:{self.port}/{path}"

    def __enter__(self):
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        os.makedirs(os.path.join(self.prefix, "tmp"), exist_ok=True)
        self.port = free_port()
        # As root, nginx's workers would switch to `nobody`, who may not read .bench/.
        user = "user root;\n" if os.geteuid() == 0 else ""
        config_path = os.path.join(self.prefix, "nginx.conf")
        with open(config_path, "w") as handle:
            handle.write(CONFIG.format(user=user, prefix=self.prefix, port=self.port, root=self.root))
        log = open(os.path.join(self.prefix, "stderr.log"), "wb")
        self.process = subprocess.Popen(
            [binary, "-p", self.prefix, "-c", config_path], stdout=log, stderr=log, stdin=subprocess.DEVNULL
        )
        log.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited at start; see {self.prefix}/stderr.log and error.log")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        self.__exit__(None, None, None)
        raise RuntimeError("nginx did not accept connections within 10 s")

    def __exit__(self, *exc):
        if self.process is None or self.process.poll() is not None:
            return False
        self.process.send_signal(signal.SIGQUIT)  # graceful: finish requests, then exit
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return False
