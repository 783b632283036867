"""A plain Debian host as docs/deploying.md sets it up: gunicorn, the worker and beat started
from the ExecStart lines of the shipped systemd units, nginx from the site `manage.py
nginx_conf` renders, included by this machine's own /etc/nginx/nginx.conf (Debian's), with TLS.
The home page, /healthz and /readyz are asked through nginx.

Needs PostgreSQL and Redis: .ci/run sets PEGBOARD_NATIVE_DATABASE_URL and PEGBOARD_NATIVE_REDIS_URL
(a migrated, seeded database); without them the stack test is skipped. The units' own checks
run everywhere.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import shutil
import signal
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.deploy.native import ROOT, units

PORTS = {"gunicorn": 18520, "http": 18521, "https": 18522}
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
METRICS_TOKEN = secrets.token_urlsafe(16)


def test_every_process_has_a_unit_that_restarts_it_and_reads_the_settings_file():
    found = units()
    assert set(found) == {
        "pegboard-web",
        "pegboard-worker",
        "pegboard-push-worker",
        "pegboard-beat",
    }
    for unit in found.values():
        assert unit.options["Service.Restart"] == ["always"], unit.name
        assert unit.environment_files == ["/etc/pegboard/pegboard.env"], unit.name
        assert unit.options["Service.User"] == ["pegboard"], unit.name


def test_gunicorn_listens_on_loopback_only_unless_told_otherwise():
    import runpy

    assert units()["pegboard-web"].environment["GUNICORN_BIND"] == "127.0.0.1:8000"
    saved = os.environ.pop("GUNICORN_BIND", None)
    try:
        assert runpy.run_path(str(ROOT / "deploy/gunicorn.conf.py"))["bind"] == "127.0.0.1:8000"
    finally:
        if saved is not None:
            os.environ["GUNICORN_BIND"] = saved


def test_the_rendered_site_is_accepted_by_this_machines_nginx(tmp_path):
    if not Path(NGINX).exists() or not Path("/etc/nginx/nginx.conf").exists():
        pytest.skip("no distribution nginx here")
    site = _render_site(tmp_path, os.environ.copy())
    conf = _main_conf(tmp_path, site)
    check = subprocess.run(
        [NGINX, "-t", "-c", str(conf), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr


def _render_site(tmp: Path, env: dict[str, str]) -> Path:
    for folder in ("static", "acme", "cache", "log"):
        (tmp / folder).mkdir(exist_ok=True)
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", str(tmp / "key.pem"), "-out", str(tmp / "cert.pem")],
        check=True, capture_output=True,
    )  # fmt: skip
    site = tmp / "pegboard.site.conf"
    subprocess.run(
        [sys.executable, "manage.py", "nginx_conf", "--server-name", "localhost",
         "--upstream", f"127.0.0.1:{PORTS['gunicorn']}", "--static-root", str(tmp / "static"),
         "--certificate", str(tmp / "cert.pem"), "--certificate-key", str(tmp / "key.pem"),
         "--acme-root", str(tmp / "acme"), "--http-port", str(PORTS["http"]),
         "--https-port", str(PORTS["https"]), "--cache-dir", str(tmp / "cache"),
         "--log-dir", str(tmp / "log"), "-o", str(site)],
        cwd=ROOT, env=env, check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    return site


def _main_conf(tmp: Path, site: Path) -> Path:
    """Debian's /etc/nginx/nginx.conf as it is, with sites-enabled/ replaced by the one site
    and its pid, logs and temporary files moved here (nginx runs as this user here)."""
    text = Path("/etc/nginx/nginx.conf").read_text()
    text, count = re.subn(r"include /etc/nginx/sites-enabled/\*;", f"include {site};", text)
    assert count == 1, "this nginx.conf does not include sites-enabled/"
    text = re.sub(r"^user \S+;", "user root;" if os.geteuid() == 0 else "", text, flags=re.M)
    text = re.sub(r"^pid \S+;", f"pid {tmp}/nginx.pid;", text, flags=re.M)
    text = re.sub(r"error_log \S+;", f"error_log {tmp}/error.log;", text)
    text = re.sub(r"access_log /var/log/nginx/access.log;", f"access_log {tmp}/access.log;", text)
    temp = "".join(
        f"\t{kind}_temp_path {tmp}/{kind}-temp;\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    text = text.replace("http {\n", "http {\n" + temp, 1)
    conf = tmp / "nginx.conf"
    conf.write_text(text)
    return conf


def _get(
    port: int, path: str, *, tls: bool, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], str]:
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        connection: http.client.HTTPConnection = http.client.HTTPSConnection(
            "127.0.0.1", port, timeout=20, context=context
        )
    else:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    connection.request("GET", path, headers={"Host": "localhost", **(headers or {})})
    response = connection.getresponse()
    body = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


@pytest.fixture
def native_stack(tmp_path):
    database = os.environ.get("PEGBOARD_NATIVE_DATABASE_URL")
    redis = os.environ.get("PEGBOARD_NATIVE_REDIS_URL")
    if not database or not redis:
        pytest.skip("PEGBOARD_NATIVE_DATABASE_URL and PEGBOARD_NATIVE_REDIS_URL not set")
    found = units()
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "CELERY_", "PYTEST_", "PEGBOARD_", "GUNICORN_"))
        and name not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "DEBUG"}
    }
    (tmp_path / "prometheus").mkdir()
    (tmp_path / "state").mkdir()
    for unit in found.values():
        env.update(unit.environment)
    # What /etc/pegboard/pegboard.env says on the host (it overrides the units' Environment=).
    env.update(
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="localhost",
        CSRF_TRUSTED_ORIGINS=f"https://localhost:{PORTS['https']}",
        PEGBOARD_SITE_URL=f"https://localhost:{PORTS['https']}",
        DATABASE_URL=database,
        REDIS_URL=redis,
        STATIC_ROOT=str(tmp_path / "static"),
        GUNICORN_BIND=f"127.0.0.1:{PORTS['gunicorn']}",
        WEB_CONCURRENCY="2",
        WORKER_CONCURRENCY="1",
        PEGBOARD_HEARTBEAT_EVERY="2",
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "prometheus"),
        PEGBOARD_PRODUCTION="1",
        PEGBOARD_METRICS_TOKEN=METRICS_TOKEN,
    )
    paths = {"/srv/pegboard": str(ROOT), "/var/lib/pegboard-beat": str(tmp_path / "state")}
    site = _render_site(tmp_path, env)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT, env=env, check=True, timeout=300,
    )  # fmt: skip
    processes = []
    try:
        for unit in found.values():
            cwd = unit.working_directory.replace("/srv/pegboard", str(ROOT))
            log = open(tmp_path / f"{unit.name}.log", "wb")  # noqa: SIM115
            processes.append(
                subprocess.Popen(
                    unit.argv(env, paths),
                    cwd=cwd,
                    env=env,
                    stdout=log,
                    stderr=log,
                    start_new_session=True,
                )
            )
        conf = _main_conf(tmp_path, site)
        nginx = subprocess.Popen(
            [NGINX, "-c", str(conf), "-e", str(tmp_path / "error.log"),
             "-g", "daemon off;"],
            start_new_session=True,
        )  # fmt: skip
        processes.append(nginx)
        yield tmp_path
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


def test_the_native_stack_serves_the_league_through_nginx_with_tls(native_stack):
    ready: tuple[int, dict[str, str], str] = (0, {}, "")
    for _ in range(90):
        try:
            ready = _get(PORTS["https"], "/readyz", tls=True)
        except (OSError, http.client.HTTPException):
            ready = (0, {}, "")
        if ready[0] == 200:
            break
        time.sleep(1)
    logs = {p.name: p.read_text(errors="replace")[-2000:] for p in native_stack.glob("*.log")}
    assert ready[0] == 200, (ready, logs)
    checks = json.loads(ready[2])["checks"]
    assert checks["database"] == checks["redis"] == "ok"
    assert checks["beat"].endswith("s ago") and checks["worker"].endswith("s ago")

    status, _, page = _get(PORTS["https"], "/", tls=True)
    assert status == 200 and "<html" in page
    # The static files the page names come from STATIC_ROOT through nginx, cached for a year.
    css = re.search(r'href="(/static/[^"]+\.[0-9a-f]{12}\.css)"', page)
    assert css, "the home page names no hashed stylesheet"
    status, headers, _ = _get(PORTS["https"], css.group(1), tls=True)
    assert status == 200 and "immutable" in headers.get("cache-control", "")

    assert _get(PORTS["https"], "/healthz", tls=True)[0] == 200
    # Over plain HTTP: the health check answers, every page goes to HTTPS.
    assert _get(PORTS["http"], "/healthz", tls=False)[0] == 200
    assert _get(PORTS["http"], "/readyz", tls=False)[0] == 200
    status, headers, _ = _get(PORTS["http"], "/", tls=False)
    assert status == 301 and headers["location"].startswith("https://localhost")

    # Prometheus: only with the token, and the figures of every gunicorn worker together.
    assert _get(PORTS["https"], "/metrics", tls=True)[0] == 401
    auth = {"Authorization": f"Bearer {METRICS_TOKEN}"}
    status, _, text = _get(PORTS["https"], "/metrics", tls=True, headers=auth)
    assert status == 200 and "django_http_requests_total_by_method_total" in text


def test_pegboard_manage_runs_manage_py_with_the_units_settings_file(tmp_path):
    settings_file = tmp_path / "pegboard.env"
    settings_file.write_text(
        "PEGBOARD_PRODUCTION=1\n"
        f"SECRET_KEY={secrets.token_urlsafe(50)}\n"
        "ALLOWED_HOSTS=pegboard.example.org\n"
        f"DATABASE_URL=sqlite:///{tmp_path / 'db.sqlite3'}\n"
        f"STATIC_ROOT={tmp_path / 'static'}\n"
        "DEFAULT_FROM_EMAIL='Pegboard <pegboard@example.org>'\n"
    )
    env = {"PATH": os.environ["PATH"], "PEGBOARD_ENV_FILE": str(settings_file)}
    result = subprocess.run(
        [str(ROOT / "deploy" / "pegboard-manage"), "nginx_conf"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    # The site's name came from ALLOWED_HOSTS in the settings file.
    assert "server_name pegboard.example.org;" in result.stdout
