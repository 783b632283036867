"""After PostgreSQL drops its connections (a restart, a failover, an idle timeout), the next
request of each worker opens a new one instead of answering 500 on the dead one: persistent
connections (``CONN_MAX_AGE``) are checked at the start of each request (``CONN_HEALTH_CHECKS``).
"""

from __future__ import annotations

import json

import psycopg
import pytest
from django.db import connection

from tests.deploy.production import production_env, run

PROBE = """
import json, django
django.setup()
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({"max_age": db["CONN_MAX_AGE"], "health": db["CONN_HEALTH_CHECKS"]}))
"""


def test_production_checks_a_kept_connection_before_each_request(tmp_path):
    env = production_env(tmp_path, DATABASE_URL="postgres://pegboard@db:5432/pegboard")
    result = run(["-c", PROBE], env)
    assert result.returncode == 0, result.stderr
    facts = json.loads(result.stdout.strip().splitlines()[-1])
    assert facts["max_age"] > 0 and facts["health"] is True


@pytest.mark.django_db(transaction=True)
def test_a_connection_postgresql_dropped_is_replaced_on_the_next_request():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL drops the connection here; CI runs this on PostgreSQL too")
    connection.ensure_connection()
    dead = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [dead])
    connection.close_if_unusable_or_obsolete()  # what Django does as each request starts
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != dead
