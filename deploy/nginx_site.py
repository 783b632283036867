"""deploy/nginx.conf rendered as a site for a distribution's nginx (``manage.py nginx_conf``).

Debian 12 ships nginx 1.22 and its own /etc/nginx/nginx.conf (the user, the workers, the MIME
types, sendfile, gzip, the logs), which includes every file in /etc/nginx/sites-enabled/ inside
its ``http {}``. So the site is the part of deploy/nginx.conf below its "Pegboard's site" line,
with the lines that only make sense in the compose container replaced:

- Docker's resolver and ``server web:8000 resolve`` (nginx 1.27.3+) -> the local gunicorn;
- ``http2 on`` (1.25.1+) -> ``listen ... ssl http2``, which 1.22 understands;
- ``default_server`` -> a ``server_name`` (the distribution's default site keeps its own);
- the certificates -> certbot's usual paths, /etc/letsencrypt/live/<name>/;
- ``/srv/pegboard`` and the container's logs and cache -> the host's.

Every replacement must match: a change to deploy/nginx.conf this no longer understands fails
here (and in the tests) rather than rendering something else.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

CONF = Path(__file__).resolve().parent / "nginx.conf"
SITE_MARK = "# --- Pegboard's site:"


def _sub(
    pattern: str, replacement: str | Callable[[re.Match[str]], str], text: str, *, flags: int = 0
) -> str:
    new, count = re.subn(pattern, replacement, text, flags=flags)
    if count < 1:
        raise ValueError(f"deploy/nginx.conf no longer has {pattern!r}: update nginx_site.py")
    return new


@dataclass(frozen=True)
class Site:
    """Where things are on the host. Defaults: Debian's paths and certbot's."""

    server_name: str
    upstream: str = "127.0.0.1:8000"
    static_root: str = "/srv/pegboard/staticfiles"
    certificate: str = ""
    certificate_key: str = ""
    acme_root: str = "/var/www/letsencrypt"
    http_port: int = 80
    https_port: int = 443
    cache_dir: str = "/var/cache/nginx/pegboard"
    log_dir: str = "/var/log/nginx"

    @property
    def cert(self) -> str:
        return self.certificate or f"/etc/letsencrypt/live/{self.server_name}/fullchain.pem"

    @property
    def key(self) -> str:
        return self.certificate_key or f"/etc/letsencrypt/live/{self.server_name}/privkey.pem"


def outside_docker(text: str, *, upstream: str, cache_dir: str) -> str:
    """The lines every rendering off compose replaces (the host's site here, the tests' and
    benches' local nginx in nginx_local.py): no Docker resolver, gunicorn at ``upstream``
    (host:port) without ``resolve`` (nginx 1.27.3+), the micro-cache in ``cache_dir``."""
    text = _sub(
        r"^\s*# Docker's DNS.*\n(\s*#.*\n)*\s*resolver 127\.0\.0\.11[^;]*;\n", "", text, flags=re.M
    )
    text = _sub(r"server web:\d+ resolve;", f"server {upstream};", text)
    return _sub(
        r"proxy_cache_path /var/cache/nginx/pegboard", f"proxy_cache_path {cache_dir}", text
    )


def site_conf(site: Site, *, source: str | None = None) -> str:
    """The site file for /etc/nginx/sites-available/pegboard."""
    text = CONF.read_text(encoding="utf-8") if source is None else source
    start = text.index(SITE_MARK)
    start = text.index("\n", start) + 1
    end = text.rindex("\n}")  # the end of http {}
    body = text[start:end] + "\n"
    body = _sub(
        r"^    access_log /dev/stdout main( buffer=\S+ flush=\S+)?;\n", "", body, flags=re.M
    )
    # Each server logs to its own file (Debian's http-level access.log then sees nothing twice).
    access = f"        access_log {site.log_dir}/pegboard.access.log main buffer=32k flush=1s;\n"
    body = _sub(r"^    server \{\n", "    server {\n" + access, body, flags=re.M)
    body = outside_docker(body, upstream=site.upstream, cache_dir=site.cache_dir)
    name = f"        server_name {site.server_name};\n"
    body = _sub(
        r"^        listen 80 default_server;\n",
        f"        listen {site.http_port};\n        listen [::]:{site.http_port};\n" + name,
        body,
        flags=re.M,
    )
    body = _sub(r"root /var/www/acme;", f"root {site.acme_root};", body)
    body = _sub(
        r"^        listen 443 ssl default_server;\n        http2 on;\n",
        f"        listen {site.https_port} ssl http2;\n"
        f"        listen [::]:{site.https_port} ssl http2;\n" + name,
        body,
        flags=re.M,
    )
    body = _sub(
        r"ssl_certificate /etc/nginx/certs/fullchain\.pem;", f"ssl_certificate {site.cert};", body
    )
    body = _sub(
        r"ssl_certificate_key /etc/nginx/certs/privkey\.pem;",
        f"ssl_certificate_key {site.key};",
        body,
    )
    # Static files from STATIC_ROOT, whatever its name: alias, and the hashed names' nested
    # location names its file by a capture (an alias is not inherited by a regex location).
    static = site.static_root.rstrip("/")
    body = _sub(r"root /srv/pegboard;", f"alias {static}/;", body)
    body = _sub(
        r'location ~ "\\\.\[0-9a-f\]\{12\}\\\.\[A-Za-z0-9\]\+\$" \{\n',
        lambda m: (
            'location ~ "^/static/(.+\\.[0-9a-f]{12}\\.[A-Za-z0-9]+)$" {\n'
            f"                alias {static}/$1;\n"
        ),
        body,
    )
    header = (
        f"# Pegboard for {site.server_name}, by `manage.py nginx_conf` from deploy/nginx.conf.\n"
        "# Goes in /etc/nginx/sites-available/pegboard (linked from sites-enabled); render it\n"
        "# again after an upgrade rather than editing it. Needs nginx 1.22+ (Debian 12).\n"
        f"# Before the first start: install -d -o www-data {site.cache_dir} {site.acme_root}\n\n"
    )
    return header + re.sub(r"^    ", "", body, flags=re.M)
