"""The production stack as docker-compose.yml, the Dockerfile and deploy/ describe it.

No Docker engine is needed: the files are read and their structure checked, so a change that
publishes the database, writes a secret into the compose file, or starts web before the
migrations ran fails here.
"""

from __future__ import annotations

import re
import runpy
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = {
    "web",
    "migrate",
    "worker",
    "push-worker",
    "beat",
}  # the services that run Pegboard's image
ONE_SHOT = {"migrate"}
SECRET_NAME = re.compile(r"SECRET|PASSWORD|TOKEN|KEY|_URL$")
INTERPOLATION = re.compile(r"\$\{([A-Z][A-Z0-9_]*)(?:(:?[-?])[^}]*)?\}")
REQUIRED_SETTINGS = {
    "SECRET_KEY",
    "DATABASE_URL",
    "REDIS_URL",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "PEGBOARD_PRODUCTION",
    "EMAIL_BACKEND",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "DEFAULT_FROM_EMAIL",
}


def read(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load(read("docker-compose.yml"))


@pytest.fixture(scope="module")
def services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return compose["services"]


@pytest.fixture(scope="module")
def nginx_conf() -> str:
    return read("deploy/nginx.conf")


@pytest.fixture(scope="module")
def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (INSTRUCTION, arguments), continuation lines joined."""
    text = re.sub(r"\\\n", " ", read("Dockerfile"))
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1] if " " in line else "")
        for line in lines
        if line and not line.startswith("#")
    ]


def long_running(services: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {name: s for name, s in services.items() if name not in ONE_SHOT}


def command_text(service: dict[str, Any]) -> str:
    command = service.get("command", "")
    return command if isinstance(command, str) else " ".join(command)


def volume_sources(service: dict[str, Any]) -> dict[str, str]:
    """Target path in the container -> source (a named volume or a host path)."""
    mounts = {}
    for volume in service.get("volumes", []):
        source, target = volume.split(":")[:2]
        mounts[target] = source
    return mounts


def env_example() -> dict[str, str]:
    """Every variable .env.example documents, set or commented out (``# NAME=value``)."""
    found = {}
    for line in read(".env.example").splitlines():
        match = re.match(r"^#?\s*([A-Z][A-Z0-9_]*)=(.*)$", line)
        if match:
            found[match[1]] = match[2]
    return found


def test_the_stack_has_every_service_production_needs(services):
    assert set(services) == {
        "nginx",
        "web",
        "migrate",
        "worker",
        "push-worker",
        "beat",
        "db",
        "redis",
    }


def test_nginx_is_the_only_service_reachable_from_outside(services):
    assert services["nginx"]["ports"], "nginx publishes no port: the site can't be reached"
    for name, service in services.items():
        assert service.get("network_mode") != "host", f"{name} shares the host's network"
        if name != "nginx":
            assert not service.get("ports"), f"{name} publishes a port; only nginx may"


def test_web_starts_after_the_migrations_ran_and_db_and_redis_are_healthy(services):
    assert services["web"]["depends_on"] == {
        "migrate": {"condition": "service_completed_successfully"},
        "db": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
    }


@pytest.mark.parametrize("name", ["worker", "push-worker", "beat"])
def test_celery_starts_after_the_migrations_ran_too(services, name):
    depends = services[name]["depends_on"]
    assert depends["migrate"] == {"condition": "service_completed_successfully"}
    assert depends["db"] == depends["redis"] == {"condition": "service_healthy"}


def test_nginx_waits_for_a_healthy_web(services):
    assert services["nginx"]["depends_on"] == {"web": {"condition": "service_healthy"}}


def test_migrate_migrates_then_collects_static_files_and_is_never_restarted(services):
    migrate = services["migrate"]
    assert command_text(migrate).endswith(
        "python manage.py migrate --noinput && python manage.py collectstatic --noinput"
    )
    assert migrate.get("restart", "no") == "no"
    assert "healthcheck" not in migrate


def test_every_long_running_service_has_a_healthcheck_and_restarts(services):
    for name, service in long_running(services).items():
        check = service.get("healthcheck", {})
        assert check.get("test") and check["test"] != ["NONE"], f"{name} has no health check"
        assert not check.get("disable"), f"{name} disables its health check"
        assert service.get("restart") == "unless-stopped", f"{name} is not restarted"


def test_app_services_run_the_commands_the_project_documents(services):
    assert "gunicorn --config deploy/gunicorn.conf.py config.wsgi" in command_text(services["web"])
    assert command_text(services["worker"]).startswith("celery -A config worker")
    assert command_text(services["beat"]).startswith("celery -A config beat")


def test_db_and_redis_are_postgres_16_and_redis_7_with_named_volumes(compose, services):
    named = set(compose["volumes"])
    assert services["db"]["image"].split(":")[:2] == ["postgres", "16"]
    assert services["redis"]["image"].split(":")[:2] == ["redis", "7"]
    assert volume_sources(services["db"])["/var/lib/postgresql/data"] in named
    assert volume_sources(services["redis"])["/data"] in named


def test_nginx_serves_the_static_files_that_migrate_collects(services, nginx_conf, dockerfile):
    static_root = re.search(r"STATIC_ROOT=(\S+)", " ".join(a for _, a in dockerfile))[1]
    collected = volume_sources(services["migrate"])[static_root]
    assert volume_sources(services["web"])[static_root] == collected  # {% static %} manifest
    served = {t for t, s in volume_sources(services["nginx"]).items() if s == collected}
    assert len(served) == 1, "nginx does not mount the collected static files"
    root = re.search(r"location /static/ \{\s*root (\S+);", nginx_conf)[1]
    assert f"{root}/static" in served


def test_app_services_read_their_settings_from_the_uncommitted_env_file(services):
    for name in APP_SERVICES:
        assert services[name]["env_file"] == ".env", f"{name} does not read .env"
    assert ".env" in read(".gitignore").splitlines()


def test_no_secret_is_written_into_the_compose_file(services):
    for name, service in services.items():
        environment = service.get("environment", {})
        if isinstance(environment, list):
            environment = dict(item.split("=", 1) for item in environment)
        for key, value in environment.items():
            if not SECRET_NAME.search(key):
                continue
            match = INTERPOLATION.fullmatch(str(value))
            assert match, f"{name}: {key} is written in docker-compose.yml, not taken from .env"
            assert match[2] != ":-" and match[2] != "-", f"{name}: {key} has a default value"
    # No URL with a password in it, anywhere (postgres://user:password@host).
    assert not re.search(r"://[^/\s:@]+:[^@\s/]+@", read("docker-compose.yml"))


def test_env_example_documents_every_setting_and_every_compose_variable():
    documented = env_example()
    used = {name for name, _ in INTERPOLATION.findall(read("docker-compose.yml"))}
    assert not REQUIRED_SETTINGS - set(documented), "undocumented settings"
    assert not used - set(documented), "docker-compose.yml uses undocumented variables"
    assert documented["PEGBOARD_PRODUCTION"] == "1"


def test_the_image_runs_as_a_non_root_user(dockerfile):
    users = [args.split(":")[0] for instruction, args in dockerfile if instruction == "USER"]
    assert users, "the Dockerfile never leaves root"
    assert users[-1] not in {"root", "0"}


def test_the_image_is_python_311_slim_with_the_project_installed_by_pip(dockerfile):
    assert dockerfile[0] == ("FROM", "python:3.11-slim")
    runs = " ".join(args for instruction, args in dockerfile if instruction == "RUN")
    assert "pyproject.toml" in runs and "pip install" in runs
    assert re.search(r"pip install [^&]*--editable \.", runs)


def test_the_image_installs_what_celerys_redis_transport_needs():
    with open(ROOT / "pyproject.toml", "rb") as f:
        dependencies = tomllib.load(f)["project"]["dependencies"]
    names = {re.split(r"[<>=!~; ]", dep, maxsplit=1)[0].lower() for dep in dependencies}
    assert names & {"celery[redis]", "kombu[redis]", "packaging"}


def test_the_image_never_copies_env_files_or_local_state(dockerfile):
    copied = [args.split()[0] for instruction, args in dockerfile if instruction in {"COPY", "ADD"}]
    assert "." not in copied, "COPY . would put .env, .secret_key and db.sqlite3 in the image"
    for source in copied:
        assert not source.startswith((".env", ".secret_key", "db.sqlite3", ".venv"))


def test_gunicorn_takes_its_workers_from_the_environment(monkeypatch):
    monkeypatch.setenv("WEB_CONCURRENCY", "5")
    config = runpy.run_path(str(ROOT / "deploy/gunicorn.conf.py"))
    assert config["workers"] == 5
    monkeypatch.delenv("WEB_CONCURRENCY")
    assert 1 <= runpy.run_path(str(ROOT / "deploy/gunicorn.conf.py"))["workers"] <= 8


def test_gunicorn_gives_up_on_a_request_before_nginx_does(nginx_conf):
    config = runpy.run_path(str(ROOT / "deploy/gunicorn.conf.py"))
    read_timeout = int(re.search(r"proxy_read_timeout (\d+)s;", nginx_conf)[1])
    assert 0 < config["timeout"] < read_timeout
    assert config["graceful_timeout"] > 0


def test_nginx_web_healthcheck_and_gunicorn_agree_on_the_port(services, nginx_conf):
    port = runpy.run_path(str(ROOT / "deploy/gunicorn.conf.py"))["bind"].rsplit(":", 1)[1]
    assert re.search(rf"server web:{port}\b", nginx_conf)
    assert f"http://127.0.0.1:{port}/healthz" in " ".join(services["web"]["healthcheck"]["test"])


def test_nginx_limits_request_size_and_rate(nginx_conf):
    assert re.search(r"client_max_body_size \d+[km]?;", nginx_conf)
    zones = set(re.findall(r"limit_req_zone \$binary_remote_addr zone=(\w+):", nginx_conf))
    used = set(re.findall(r"limit_req zone=(\w+)", nginx_conf))
    assert zones and used == zones
    assert "limit_req_status 429;" in nginx_conf


def test_nginx_proxies_to_web_and_tells_django_the_scheme(nginx_conf):
    upstream = re.search(r"upstream (\w+) \{[^}]*server web:\d+", nginx_conf)
    assert upstream, "no upstream points at the web service"
    assert f"proxy_pass http://{upstream[1]};" in nginx_conf
    # Django trusts X-Forwarded-Proto (SECURE_PROXY_SSL_HEADER): nginx must always set it.
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in nginx_conf


def test_nginx_healthcheck_asks_a_location_nginx_answers(services, nginx_conf):
    url = services["nginx"]["healthcheck"]["test"][-1]
    path = url.split("127.0.0.1", 1)[1]
    assert re.search(rf"location = {re.escape(path)} \{{[^}}]*return 200", nginx_conf)


def test_gunicorn_preloads_and_recycles_workers_rarely_and_apart(monkeypatch):
    """Under a venue night's spectators 1,000 requests came round every 1.5 s, and each
    recycled worker paid its start-up on a captain's deal (venue load): workers now serve 20,000
    requests or more, restart at different times, and start from a preloaded application."""
    for name in ("GUNICORN_MAX_REQUESTS", "GUNICORN_MAX_REQUESTS_JITTER", "GUNICORN_PRELOAD"):
        monkeypatch.delenv(name, raising=False)
    config = runpy.run_path(str(ROOT / "deploy/gunicorn.conf.py"))
    assert config["max_requests"] >= 20000
    assert config["max_requests_jitter"] >= config["max_requests"] // 20
    assert config["preload_app"] is True
    monkeypatch.setenv("GUNICORN_MAX_REQUESTS", "0")
    monkeypatch.setenv("GUNICORN_PRELOAD", "0")
    config = runpy.run_path(str(ROOT / "deploy/gunicorn.conf.py"))
    assert config["max_requests"] == 0 and config["preload_app"] is False


def test_each_worker_is_forked_with_the_loaded_application_out_of_the_collectors_reach():
    """A worker's full collection walked everything the master had loaded, once in its first
    hundred requests: 150 to 250 ms on a captain's deal (venue-night load). The master freezes it
    before each fork, so a worker's collections only walk what the worker made itself."""
    import gc

    config = runpy.run_path(str(ROOT / "deploy/gunicorn.conf.py"))
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        config["pre_fork"](server=None, worker=None)
        assert gc.get_freeze_count() > 10_000  # Django and the project, loaded by this test run
        garbage: list[object] = []
        garbage.append(garbage)  # a cycle made after the fork is still collected
        del garbage
        assert gc.collect() >= 1
    finally:
        gc.unfreeze()


def test_the_micro_cache_knows_djangos_cookie_names(nginx_conf):
    from django.conf import settings

    # Signed-in people are recognised by the session cookie, the language by its cookie: if
    # Django renamed either, nginx would serve captains from the cache or mix the languages.
    assert f"$cookie_{settings.SESSION_COOKIE_NAME}" in nginx_conf
    assert f"$cookie_{settings.LANGUAGE_COOKIE_NAME}" in nginx_conf
    assert "$cookie_messages" in nginx_conf and "$http_authorization" in nginx_conf


def test_the_micro_cache_serves_visitors_only_and_never_the_api(nginx_conf):
    # The HTTPS server's `location /` (the plain-HTTP one only redirects).
    root = re.findall(r"\n        location / \{(.*?)\n        \}", nginx_conf, re.S)[-1]
    assert "proxy_cache visitors;" in root
    assert "proxy_cache_bypass $pegboard_personal $pegboard_language_unsure;" in root
    assert "proxy_no_cache $pegboard_personal $pegboard_language_unsure;" in root
    assert "proxy_cache_methods GET HEAD;" in root
    assert "Set-Cookie" not in root  # nginx's default, never storing such answers, is kept
    uncached = re.search(r"location ~ \^/\(([a-z|]+)\)/ \{(.*?)\}", nginx_conf, re.S)
    assert {"admin", "api", "accounts", "organise"} <= set(uncached[1].split("|"))
    assert "proxy_cache" not in uncached[2]


def test_the_image_copies_every_package_the_project_installs(dockerfile):
    """A package missing from the image is an app the production stack cannot import (the
    tournaments once left league/ for the top level and the image did not follow)."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        includes = tomllib.load(f)["tool"]["setuptools"]["packages"]["find"]["include"]
    copied = {args.split()[0] for instruction, args in dockerfile if instruction == "COPY"}
    for pattern in includes:
        assert pattern.rstrip("*") in copied, f"the image does not copy {pattern.rstrip('*')}/"
