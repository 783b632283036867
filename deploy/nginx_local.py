"""deploy/nginx.conf made runnable on this machine, for the tests and bench/load.py.

The production file is not copied by hand: it is read and the few lines that only make sense in
the container are replaced (Docker's resolver and upstream name, as for a plain host's site in
nginx_site.py; TLS, the nginx user, the log, pid and cache paths), so the cache, the maps and
the locations under test are the production ones. Every replacement must match exactly once: a
change to deploy/nginx.conf that this no longer understands fails loudly here instead of testing
something else.

Debian's nginx-light (1.22) runs it; the container's nginx is newer (``resolve``, ``http2 on``),
and those lines are among the replaced ones.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from deploy.nginx_site import CONF, outside_docker

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def _sub(
    pattern: str, replacement: str | Callable[[re.Match[str]], str], text: str, *, flags: int = 0
) -> str:
    new, count = re.subn(pattern, replacement, text, flags=flags)
    if count < 1:
        raise ValueError(f"deploy/nginx.conf no longer has {pattern!r}: update nginx_local.py")
    return new


def local_conf(
    *, workdir: Path, port: int, upstream: str, rate_limits: bool = True, buffered_log: bool = False
) -> str:
    """deploy/nginx.conf listening on 127.0.0.1:``port`` in plain HTTP and proxying to
    ``upstream`` (host:port), with its logs, pid, temporary files and cache under ``workdir``.

    ``rate_limits=False`` drops the per-address limits: a load bench sends thousands of
    spectators from one address, which the limits (rightly) refuse. ``buffered_log=True`` keeps
    the production log's buffer (the bench reads the log after each run, not each request)."""
    text = CONF.read_text(encoding="utf-8")
    # Run as root (a session's machine), the workers would be nobody, who cannot enter a
    # private temporary directory: they stay root here; as anyone else, they stay that user.
    text = _sub(r"^user nginx;\n", "user root;\n" if os.geteuid() == 0 else "", text, flags=re.M)
    text = _sub(r"^pid \S+;", f"pid {workdir}/nginx.pid;", text, flags=re.M)
    text = _sub(r"error_log \S+ (\w+);", rf"error_log {workdir}/error.log \1;", text)
    # The tests read the log the moment a request is answered: unbuffered unless asked.
    text = _sub(
        r"access_log /dev/stdout main( buffer=\S+ flush=\S+)?;",
        lambda m: f"access_log {workdir}/access.log main{m.group(1) if buffered_log else ''};",
        text,
    )
    text = outside_docker(text, upstream=upstream, cache_dir=f"{workdir}/cache")
    temp = "".join(
        f"    {kind}_temp_path {workdir}/{kind}-temp;\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    text = _sub(r"^http \{\n", "http {\n" + temp, text, flags=re.M)
    # The plain-HTTP server (ACME, redirect to HTTPS) is not needed here.
    text = _sub(
        r"\n    server \{\n        listen 80 default_server;.*?\n    \}\n",
        "\n",
        text,
        flags=re.S,
    )
    text = _sub(r"listen 443 ssl default_server;", f"listen 127.0.0.1:{port} default_server;", text)
    text = _sub(r"^\s*http2 on;\n", "", text, flags=re.M)
    text = _sub(r"^\s*ssl_[a-z_]+ [^;]*;\n", "", text, flags=re.M)
    if not rate_limits:
        text = _sub(r"^\s*limit_(req|conn) [^;]*;\n", "", text, flags=re.M)
    return text


@dataclass
class LocalNginx:
    """A running nginx; ``stop()`` ends it (the master and its workers)."""

    process: subprocess.Popen[bytes]
    workdir: Path
    url: str

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def access_log(self) -> str:
        path = self.workdir / "access.log"
        return path.read_text(encoding="utf-8") if path.exists() else ""

    def error_log(self) -> str:
        path = self.workdir / "error.log"
        return path.read_text(encoding="utf-8") if path.exists() else ""


def start_nginx(
    *,
    workdir: Path,
    port: int,
    upstream: str,
    rate_limits: bool = True,
    buffered_log: bool = False,
) -> LocalNginx:
    """Write the local configuration into ``workdir``, check it (``nginx -t``) and start nginx
    in the foreground of a child process; returns once it answers on ``port``."""
    workdir.mkdir(parents=True, exist_ok=True)
    conf = workdir / "nginx.conf"
    conf.write_text(
        local_conf(
            workdir=workdir,
            port=port,
            upstream=upstream,
            rate_limits=rate_limits,
            buffered_log=buffered_log,
        ),
        encoding="utf-8",
    )
    base = [NGINX, "-p", str(workdir), "-c", str(conf), "-e", str(workdir / "error.log")]
    check = subprocess.run([*base, "-t"], capture_output=True, text=True, check=False)
    if check.returncode != 0:
        raise RuntimeError(f"nginx -t refused the local configuration:\n{check.stderr}")
    # Its own session, as its own container has in docker-compose.yml: with the kernel's
    # autogroup scheduling (on in most distributions), a session shares the CPU with the other
    # sessions as one, so nginx then competes with gunicorn and PostgreSQL as a server of its
    # own, not inside the share of whatever started it (a test or the load bench's clients).
    process = subprocess.Popen(
        [*base, "-g", "daemon off;"], stderr=subprocess.DEVNULL, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        if process.poll() is not None:
            raise RuntimeError(f"nginx stopped at start:\n{(workdir / 'error.log').read_text()}")
        try:
            urllib.request.urlopen(f"{url}/ping", timeout=1)
        except urllib.error.HTTPError:
            break  # nginx answered (a 502 while the app starts): it is up
        except OSError:
            time.sleep(0.05)
            continue
        break
    return LocalNginx(process=process, workdir=workdir, url=url)
