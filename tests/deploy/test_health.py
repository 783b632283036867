"""Seeing trouble: /healthz for load balancers (plain HTTP from the host too), /readyz for the
database, Redis and the heartbeat of beat and a worker, the organiser told when messages are
not going out, Prometheus behind a token, and log lines an operator can read."""

from __future__ import annotations

import re
import time

import pytest
from django.core.cache import cache
from django.test import override_settings

from league.kernel.heartbeat import BEAT_KEY, WORKER_KEY, beat_stamp, worker_stamp
from tests.deploy.production import production_env, run

# A deployment with a worker (tasks not run in-process); the cache stays local memory here.
WITH_WORKER = override_settings(CELERY_TASK_ALWAYS_EAGER=False, PEGBOARD_HEARTBEAT_STALE=210)
# The embedded mode (also when CI runs the suite with Redis and a worker).
EMBEDDED = override_settings(CELERY_TASK_ALWAYS_EAGER=True, REDIS_URL="")


@pytest.fixture(autouse=True)
def _no_stamps():
    cache.delete_many([BEAT_KEY, WORKER_KEY])
    yield
    cache.delete_many([BEAT_KEY, WORKER_KEY])


@pytest.mark.django_db
def test_readyz_is_ready_in_the_embedded_mode_where_tasks_run_in_process(client):
    with EMBEDDED:
        response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["checks"] == {
        "database": "ok",
        "redis": "not configured",
        "worker": "in-process",
        "beat": "in-process",
    }


@pytest.mark.django_db
def test_readyz_is_not_ready_when_no_worker_or_beat_has_ever_stamped(client):
    with WITH_WORKER:
        response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "not ready"
    assert any("worker" in reason for reason in body["reasons"])
    assert any("beat" in reason for reason in body["reasons"])


@pytest.mark.django_db
def test_readyz_names_the_worker_when_only_the_worker_has_stopped(client):
    beat_stamp()
    worker_stamp(now=time.time() - 600)
    with WITH_WORKER:
        response = client.get("/readyz")
    assert response.status_code == 503
    reasons = response.json()["reasons"]
    assert len(reasons) == 1 and reasons[0].startswith("worker heartbeat is 6"), reasons


@pytest.mark.django_db
def test_readyz_is_ready_when_beat_and_a_worker_stamped_recently(client):
    beat_stamp()
    worker_stamp()
    with WITH_WORKER:
        response = client.get("/readyz")
    assert response.status_code == 200, response.json()
    assert response.headers["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_readyz_is_not_ready_when_the_database_does_not_answer(client, monkeypatch):
    from league.views import health

    monkeypatch.setattr(health, "_database", lambda: "the database does not answer (X)")
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "error"


@pytest.mark.django_db
def test_the_heartbeat_task_run_by_a_worker_makes_readyz_ready(client):
    from league.tasks import heartbeat

    beat_stamp()
    heartbeat.apply()  # the worker's side of the heartbeat, run here
    with WITH_WORKER:
        assert client.get("/readyz").status_code == 200


@pytest.mark.django_db
def test_organiser_pages_say_messages_are_not_going_out_when_the_worker_stopped(
    client, league_admin
):
    client.force_login(league_admin)
    with WITH_WORKER:
        page = client.get("/organise/").content.decode()
    assert "Messages are not going out" in page
    beat_stamp()
    worker_stamp()
    with WITH_WORKER:
        page = client.get("/organise/").content.decode()
    assert "Messages are not going out" not in page


@pytest.mark.django_db
def test_organiser_pages_say_nothing_in_the_embedded_mode(client, league_admin):
    client.force_login(league_admin)
    with EMBEDDED:
        assert "Messages are not going out" not in client.get("/organise/").content.decode()


@pytest.mark.django_db
def test_public_pages_never_show_the_operators_warning(client):
    with WITH_WORKER:
        assert "Messages are not going out" not in client.get("/").content.decode()


@pytest.mark.django_db
def test_metrics_do_not_exist_without_a_token(client):
    assert client.get("/metrics").status_code == 404


@pytest.mark.django_db
def test_metrics_need_the_token_and_then_speak_prometheus(client):
    with override_settings(PEGBOARD_METRICS_TOKEN="s3cret-token"):
        assert client.get("/metrics").status_code == 401
        assert client.get("/metrics", headers={"authorization": "Bearer wrong"}).status_code == 401
        client.get("/ping")
        response = client.get("/metrics", headers={"authorization": "Bearer s3cret-token"})
    assert response.status_code == 200
    assert "django_http_requests_total_by_method_total" in response.content.decode()


@pytest.mark.slow  # processes started for real: 15 s or more (make test-slow, CI)
def test_healthz_and_readyz_answer_plain_http_by_address_in_production(tmp_path):
    """A load balancer's probe, or curl on the host: no HTTPS redirect, no Host refused."""
    probe = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "c = Client()\n"
        "print(c.get('/healthz', headers={'host': '10.0.0.7:8000'}).status_code,"
        " c.get('/readyz', headers={'host': '127.0.0.1'}).status_code,"
        " c.get('/', headers={'host': 'example.org'}).status_code)\n"
    )
    env = production_env(tmp_path)
    assert run(["manage.py", "migrate", "-v0"], env).returncode == 0
    result = run(["-c", probe], env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["200", "200", "301"]


def test_log_lines_carry_time_level_and_logger(tmp_path):
    result = run(
        [
            "-c",
            "import django; django.setup(); import logging; "
            "logging.getLogger('league.mail').warning('the SMTP server refused us')",
        ],
        production_env(tmp_path),
    )
    line = result.stderr.strip().splitlines()[-1]
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ WARNING league\.mail the SMTP server refused us", line
    ), line


def test_log_lines_can_be_json_for_a_collector(tmp_path):
    import json

    result = run(
        [
            "-c",
            "import django; django.setup(); import logging; "
            "logging.getLogger('league.mail').error('no mail')",
        ],
        production_env(tmp_path, LOG_FORMAT="json"),
    )
    line = json.loads(result.stderr.strip().splitlines()[-1])
    assert (line["level"], line["logger"], line["message"]) == ("ERROR", "league.mail", "no mail")
    assert line["time"].startswith("20")


def test_admins_come_from_the_environment(tmp_path):
    result = run(
        [
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "print(settings.ADMINS)",
        ],
        production_env(tmp_path, ADMINS="Ann Lee <ann@example.org>, ops@example.org"),
    )
    assert result.stdout.strip() == "[('Ann Lee', 'ann@example.org'), ('', 'ops@example.org')]"


def test_error_reporting_is_off_unless_a_sentry_dsn_is_set(tmp_path):
    probe = (
        "import django; django.setup(); import sentry_sdk; "
        "print(sentry_sdk.get_client().is_active())"
    )
    assert run(["-c", probe], production_env(tmp_path)).stdout.strip() == "False"
    env = production_env(tmp_path, SENTRY_DSN="https://key@sentry.example.org/1")
    result = run(["-c", probe], env)
    assert result.stdout.strip() == "True", result.stderr
