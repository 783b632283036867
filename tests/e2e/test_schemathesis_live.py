"""schemathesis against the live API of the production processes (gunicorn, PostgreSQL, Redis,
a Celery worker), as a captain, a judge and a league admin of the seeded demo, each signed in
with a token: no generated request, valid or not, may get a server error. Run by .ci/run's
end-to-end stage after the other end-to-end tests; bounded to a few examples per operation."""

from __future__ import annotations

import os

import hypothesis
import pytest
import schemathesis
from schemathesis.checks import not_a_server_error

from tests.e2e.live import BASE, token_for

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not BASE, reason="needs PEGBOARD_E2E_URL (run by .ci/run)"),
]

MAX_EXAMPLES = int(os.environ.get("PEGBOARD_E2E_SCHEMATHESIS_EXAMPLES", "3"))
ROLES = {"captain": ("ann", "cribbage"), "judge": ("judge", "judge"),
         "league admin": ("leagueadmin", "leagueadmin")}  # fmt: skip


@pytest.fixture(scope="module")
def tokens() -> dict[str, str]:
    return {role: token_for(*account) for role, account in ROLES.items()}


def live_schema():
    schema = schemathesis.openapi.from_url(f"{BASE}/api/schema/")
    schema.config.generation.update(max_examples=MAX_EXAMPLES, database="none")
    # Not the schema and docs themselves; not DELETE of the token, which would sign the run out.
    return schema.exclude(path_regex=r"^/api/(schema|docs)/").exclude(
        path="/api/auth/token/", method="DELETE"
    )


if BASE:  # the schema is read from the running server when the module is collected

    @live_schema().parametrize()
    @hypothesis.settings(
        deadline=None, suppress_health_check=list(hypothesis.HealthCheck), derandomize=True
    )
    def test_no_role_gets_a_server_error_from_the_live_api(case, tokens):
        for role in ROLES:  # the same generated request from each role
            headers = {"Authorization": f"Token {tokens[role]}"}
            response = case.call(headers=headers, timeout=10)
            case.validate_response(response, checks=[not_a_server_error], headers=headers)
