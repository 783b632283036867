"""Property-based tests of the API against its own OpenAPI schema (/api/schema/), with schemathesis.

Every operation is called with generated requests, valid and invalid, as a captain signed in
with a token, on a small league whose real ids are used for most path parameters. No answer
may be a server error, and every answer with a status the schema lists must have the
documented content type and body. Bounded: a dozen examples per operation, about half a minute.
"""

from __future__ import annotations

import hypothesis
import pytest
import schemathesis  # a dev dependency: a missing install fails here, it is not skipped
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from league.models import Deal
from league.services.deals import deal_record
from league.services.disputes import dispute_raise
from league.services.games import game_start
from tests.factories import deal_game

pytestmark = pytest.mark.schemathesis

MAX_EXAMPLES = 12
# Not status_code_conformance: drf-spectacular lists the success answers and the refusals we
# annotate, not the 404 of an unknown id or the 400 of a bad filter, which every API answers.
# Every answer whose status the schema does list must match its documented body.
CHECKS = [not_a_server_error, content_type_conformance, response_schema_conformance]


@pytest.fixture
def league_night(match, ann, cat, home_team, away_team, other_team, week):
    """Game 1 finished (entered by Cat's team, so Ann may confirm) and disputed; game 2 begun."""
    finished = game_start(match=match, user=cat, seats=["Ann", "Cat", "Bob", "Dan"])
    for body in deal_game(seed=1).deals:
        key, number = body.pop("key"), body.pop("number")
        deal_record(game=finished, user=cat, number=number, data=body, key=key)
    dispute = dispute_raise(game=finished, user=ann, claim="Deal 3's crib was 6.", deal_number=3)
    playing = game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    return {"match": match, "games": [finished, playing], "dispute": dispute}


@pytest.fixture
def club_night(ann, cat, league_admin):
    """A club night of four (Ann and Cat have accounts), its first round seated."""
    from tournaments import services as tournaments

    night = tournaments.tournament_create(user=league_admin, name="Schema Night", draw_seed=3)
    for name, player in (("Ann", ann.player), ("Cat", cat.player), ("Eve", None), ("Fay", None)):
        tournaments.entrant_register(
            user=league_admin,
            tournament=night,
            name=name,
            players=[player] if player else [],
            check_in=True,
        )
    rnd = tournaments.round_seat_next(user=league_admin, tournament=night)
    return night, list(rnd.games.all())


@pytest.fixture
def real_ids(league_night, season, league, home_team, week, club_night):
    """Ids of rows that exist, per resource, to put in generated paths."""
    games = league_night["games"]
    night, tables = club_night
    return {
        "tournaments": [night.pk],
        "tournament-tables": [t.pk for t in tables],
        "disputes": [league_night["dispute"].pk],
        "leagues": [league.pk],
        "seasons": [season.pk],
        "teams": [home_team.pk],
        "weeks": [week.pk],
        "matches": [league_night["match"].pk],
        "games": [g.pk for g in games],
        "deals": list(Deal.objects.values_list("pk", flat=True)[:3]),
    }


@pytest.fixture
def captain_headers(ann) -> dict[str, str]:
    token, _ = Token.objects.get_or_create(user=ann)
    return {"Authorization": f"Token {token.key}"}


@pytest.fixture
def wsgi_requests_keep_the_test_transaction(settings):
    """Run the app as gunicorn would, inside the test's transaction.

    Django closes "old" database connections when a request starts and ends; the test client
    stops that (or the test's transaction would be lost), and so must we.
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"deals": "100000/min"},  # the rate limit has its own tests
    }
    settings.AXES_ENABLED = False  # generated logins would lock generated names out (429)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
schema.config.generation.update(max_examples=MAX_EXAMPLES, database="none")
schema = schema.exclude(path_regex=r"^/api/(schema|docs)/")


@schema.parametrize()
# The league is set up once per operation and shared by its examples, on purpose: what one
# generated request stores (a deal, a dispute) is there for the next, as in real use.
@hypothesis.settings(suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture])
def test_the_api_answers_within_its_schema(
    case, captain_headers, real_ids, wsgi_requests_keep_the_test_transaction
):
    if "id" in (case.path_parameters or {}):
        resource = case.operation.path.split("/")[2]
        ids = real_ids.get(resource)
        generated = case.path_parameters["id"]
        if ids and isinstance(generated, int) and generated % 4:  # 3 in 4: a row that exists
            case.path_parameters["id"] = ids[generated % len(ids)]
    response = case.call(headers=captain_headers)
    case.validate_response(response, checks=CHECKS, headers=captain_headers)
