"""Production settings: Django's deploy checks pass, DEBUG stays off and errors show no
traceback, every response carries the Content-Security-Policy, and /healthz answers from the
database alone.

Production mode is decided when the settings are imported, so those checks run in a fresh
Python process with the production environment; the middleware and /healthz are also tested
in-process.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.base import BaseCache
from django.core.exceptions import ImproperlyConfigured
from django.db import OperationalError
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from config.csp import HEADER, ContentSecurityPolicyMiddleware
from tests.deploy.production import production_env, run

ROOT = Path(__file__).resolve().parents[2]
CSP_MIDDLEWARE = "config.csp.ContentSecurityPolicyMiddleware"
POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'self'"
)

# Run in production mode: the settings Django ends up with, a view that fails, /healthz, and
# the web service's health check from docker-compose.yml (with urlopen answered by Django).
PROBE = r"""
import json, types, urllib.error, urllib.parse, urllib.request
import django
import yaml
django.setup()
from django.conf import settings
from django.test import Client
from django.test.utils import override_settings
from django.urls import path

facts = {
    "DEBUG": settings.DEBUG,
    "DEBUG_PROPAGATE_EXCEPTIONS": settings.DEBUG_PROPAGATE_EXCEPTIONS,
    "TEMPLATE_DEBUG": settings.TEMPLATES[0].get("OPTIONS", {}).get("debug", settings.DEBUG),
}

def boom(request):
    raise RuntimeError("the deal table is on fire")

client = Client(raise_request_exception=False)
failing_urls = types.ModuleType("failing_urls")
failing_urls.urlpatterns = [path("boom", boom)]
with override_settings(ROOT_URLCONF=failing_urls):
    response = client.get("/boom", secure=True, headers={"host": "example.org"})
facts["error"] = {"status": response.status_code, "body": response.content.decode()}

response = client.get("/ping", secure=True, headers={"host": "example.org"})
facts["healthz"] = {
    "status": response.status_code, "csp": response.headers.get("Content-Security-Policy")
}
response = client.get("/healthz", headers={"host": "example.org"})
facts["healthz_plain_http"] = response.status_code
response = client.get("/", headers={"host": "example.org"})
facts["page_plain_http"] = response.status_code

def urlopen(request, timeout=None):
    url = urllib.parse.urlsplit(request.full_url)
    headers = {name.lower(): value for name, value in request.header_items()}
    answer = client.get(url.path, headers=headers)
    facts["healthcheck"] = {"url": request.full_url, "status": answer.status_code}
    if answer.status_code != 200:
        raise urllib.error.HTTPError(request.full_url, answer.status_code, "", None, None)

compose = yaml.safe_load(open("docker-compose.yml"))
command = compose["services"]["web"]["healthcheck"]["test"]
assert command[:3] == ["CMD", "python", "-c"], command
urllib.request.urlopen = urlopen
try:
    exec(command[3], {})
except urllib.error.HTTPError:
    pass  # the status is in facts["healthcheck"]
print(json.dumps(facts))
"""


@pytest.fixture(scope="module")
def production(tmp_path_factory) -> dict[str, Any]:
    """What the probe saw in production mode, with DEBUG=1 in the environment on purpose."""
    result = run(["-c", PROBE], production_env(tmp_path_factory.mktemp("prod"), DEBUG="1"))
    assert result.returncode == 0, result.stderr
    facts = json.loads(result.stdout.strip().splitlines()[-1])
    facts["stderr"] = result.stderr
    return facts


def test_deploy_checks_find_nothing_in_production(tmp_path):
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], production_env(tmp_path)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNINGS" not in result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    env = production_env(tmp_path)
    del env["SECRET_KEY"]
    result = run(["manage.py", "check"], env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set in production" in result.stderr


def test_debug_is_off_in_production_even_when_the_environment_asks_for_it(production):
    assert production["DEBUG"] is False
    assert production["DEBUG_PROPAGATE_EXCEPTIONS"] is False
    assert production["TEMPLATE_DEBUG"] is False


def test_a_failing_page_shows_no_traceback_in_production(production):
    error = production["error"]
    assert error["status"] == 500
    for leak in ("Traceback", "RuntimeError", "on fire", "SECRET_KEY", "boom"):
        assert leak not in error["body"]
    # ... but the error is logged, with its traceback, for the people running the site.
    assert "RuntimeError: the deal table is on fire" in production["stderr"]


def test_production_sends_the_content_security_policy(production):
    assert production["healthz"] == {"status": 200, "csp": POLICY}


def test_production_redirects_plain_http_to_https_except_the_health_check(production):
    assert production["page_plain_http"] == 301
    assert production["healthz_plain_http"] == 200


def test_the_compose_health_check_of_web_passes_against_production_settings(production):
    assert production["healthcheck"] == {"url": "http://127.0.0.1:8000/healthz", "status": 200}


@pytest.mark.django_db
def test_csp_middleware_sends_the_policy_of_the_csp_setting(client):
    policy = {"default-src": ["'self'"], "img-src": ["'self'", "data:"]}
    with override_settings(MIDDLEWARE=[*settings.MIDDLEWARE, CSP_MIDDLEWARE], CSP=policy):
        response = client.get("/ping")
    assert response.headers[HEADER] == "default-src 'self'; img-src 'self' data:"


def test_csp_middleware_keeps_a_policy_a_view_set_itself():
    def view(request):
        response = HttpResponse()
        response.headers[HEADER] = "default-src 'none'"
        return response

    with override_settings(CSP={"default-src": ["'self'"]}):
        middleware = ContentSecurityPolicyMiddleware(view)
    assert middleware(RequestFactory().get("/"))[HEADER] == "default-src 'none'"


def test_csp_middleware_without_a_policy_is_a_configuration_error():
    with override_settings(CSP={}), pytest.raises(ImproperlyConfigured, match="CSP setting"):
        ContentSecurityPolicyMiddleware(lambda request: HttpResponse())


class CacheThatFails(BaseCache):
    """A cache whose every read and write raises, like Redis when it is down (BaseCache
    implements none of them)."""

    def __init__(self, location: str, params: dict[str, Any]) -> None:
        super().__init__(params)


@pytest.mark.django_db
def test_healthz_answers_from_the_database_without_touching_the_cache(client):
    failing = {"default": {"BACKEND": f"{__name__}.CacheThatFails"}}
    with override_settings(CACHES=failing):
        with pytest.raises(NotImplementedError):
            cache.get("anything")  # the cache really is unusable here
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


@pytest.mark.django_db
def test_healthz_answers_503_when_the_database_does_not(client):
    with mock.patch(
        "league.views.health.connection.cursor", side_effect=OperationalError("no database")
    ):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "unreachable"}


def _deploy_warnings(env: dict[str, str]) -> str:
    result = run(["manage.py", "check", "--deploy"], env)
    return result.stdout + result.stderr


def test_check_deploy_warns_when_mail_links_would_point_at_the_default_address(tmp_path):
    env = production_env(tmp_path)
    del env["PEGBOARD_SITE_URL"]
    assert "pegboard.W001" in _deploy_warnings(env)


def test_check_deploy_warns_when_no_push_could_ever_be_sent(tmp_path):
    env = production_env(tmp_path, PEGBOARD_VAPID_PUBLIC_KEY="", PEGBOARD_VAPID_PRIVATE_KEY="")
    assert "pegboard.W002" in _deploy_warnings(env)


@pytest.mark.slow  # processes started for real: 15 s or more (make test-slow, CI)
def test_check_deploy_warns_of_a_utc_site_with_a_venue_without_a_time_zone(tmp_path):
    env = production_env(tmp_path, TIME_ZONE="UTC")
    assert run(["manage.py", "migrate", "-v0"], env).returncode == 0
    assert "pegboard.W003" not in _deploy_warnings(env)  # no venue yet
    make = "from league.models import Venue; Venue.objects.create(name='The Anchor')"
    assert run(["manage.py", "shell", "-c", make], env).returncode == 0
    assert "pegboard.W003" in _deploy_warnings(env)
    assert "The Anchor" in _deploy_warnings(env)
    # The league's own zone set for the site: no warning.
    assert "pegboard.W003" not in _deploy_warnings({**env, "TIME_ZONE": "America/Toronto"})
    # Every league with its zone (/organise/time-zones/): its venues take it, no warning.
    league = (
        "from league.models import League; "
        "League.objects.create(name='Doubles', time_zone='Europe/London')"
    )
    assert run(["manage.py", "shell", "-c", league], env).returncode == 0
    assert "pegboard.W003" not in _deploy_warnings(env)


def test_env_example_names_every_setting_a_deployment_needs():
    names = {
        line.split("=", 1)[0].lstrip("# ").strip()
        for line in (ROOT / ".env.example").read_text().splitlines()
        if "=" in line and not line.startswith("#     ")
    }
    needed = {
        "PEGBOARD_PRODUCTION", "SECRET_KEY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS",
        "PEGBOARD_SITE_URL", "PEGBOARD_VAPID_PUBLIC_KEY", "PEGBOARD_VAPID_PRIVATE_KEY",
        "PEGBOARD_VAPID_SUBJECT", "GUNICORN_BIND", "TIME_ZONE", "DATABASE_URL", "REDIS_URL",
        "STATIC_ROOT", "SENTRY_DSN", "ADMINS", "EMAIL_HOST", "DEFAULT_FROM_EMAIL",
        "PEGBOARD_METRICS_TOKEN", "LOG_FORMAT",
    }  # fmt: skip
    assert needed <= names, needed - names
