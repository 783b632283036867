"""What one deal costs on its way from a phone to the database (issues 34 and 42): the modules
its path enters (``tests/pathprobe.py``, the measure ``bench/deal_path.py`` prints), the SQL
statements of a deal and of a game start, and the token's user read from the cache, forgotten
the moment the token or its user changes."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.models import Deal, Game
from league.services.tokens import token_issue
from tests.factories import plain_deal
from tests.pathprobe import probe

pytestmark = pytest.mark.django_db

SERVICES = "league.services.deals"
PERMISSIONS = "league.kernel.permissions"
LIFECYCLE = "league.kernel.lifecycle"


def phone(user) -> APIClient:
    """A phone signed in with an API token, as the apps are."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=user).key}")
    return client


def send(client: APIClient, game: Game, number: int, **deal):
    body = {"key": f"deal-{game.pk}-{number}", "number": number, **plain_deal(number - 1), **deal}
    return client.post(f"/api/games/{game.pk}/deals/", body, format="json")


def token_reads(queries) -> int:
    return sum("authtoken_token" in q["sql"] for q in queries.captured_queries)


# --- The path ---------------------------------------------------------------------------------


def test_a_deal_enters_services_permissions_and_lifecycle_once(game, ann):
    client = phone(ann)
    assert send(client, game, 1).status_code == 201

    response, path = probe(lambda: send(client, game, 2), start="GameViewSet.deals")

    assert response.status_code == 201, response.content
    for module in (SERVICES, PERMISSIONS, LIFECYCLE):
        assert path.entries[module] == 1, path.report()
        assert path.reentries[module] == 0, path.report()
    # The refusal is one call, which also says who the write is recorded under.
    assert f"{PERMISSIONS}.permit" in path.entered
    assert "league.checks.teams_of" not in path.entered  # the teams came with the locked game
    assert f"{SERVICES}._replay" not in path.entered  # checked from the stored scores
    # The door reads its request and builds its answer in one function each, and the deal is
    # read in one pass (no serializer fields, no DRF serializer per request).
    assert "league.kernel.api.read_deal_request" in path.entered
    assert "league.kernel.api.parse" not in path.entered
    assert "league.kernel.entries.to_entry" not in path.entered  # the entry came with the read
    # 58 functions, 82 calls and 20 re-entries at c5da6f4, then 49 and 1 (bench/README.md):
    # the answer's Deal.after_at_hole is the one climb back left (into the models module the
    # lock read).
    assert path.functions <= 34, path.report()
    assert len(path.calls) <= 41, path.report()  # half of 82
    assert path.reentered <= 1, path.report()


def test_the_other_phones_agreement_enters_permissions_and_lifecycle_once(game, ann, cat):
    """Where both teams enter every deal, the second phone's entry of a deal is as common as
    the first: it is asked once too (the sender's team came with the locked read, not asked of
    the permissions again), and it settles the game with one lifecycle call."""
    assert send(phone(ann), game, 1).status_code == 201
    other = phone(cat)

    response, path = probe(
        lambda: send(other, game, 1, key="their-phone-1"), start="GameViewSet.deals"
    )

    assert response.status_code == 200, response.content  # the stored deal, agreed
    for module in (SERVICES, PERMISSIONS, LIFECYCLE):
        assert path.entries[module] == 1, path.report()
    assert "league.checks.team_of" not in path.entered
    assert f"{LIFECYCLE}.require" not in path.entered  # the state allowed it: no refusal built
    assert "league.services.results.results_changed" not in path.entered  # still in progress


def test_an_agreement_costs_seven_statements(game, ann, cat, django_assert_num_queries):
    """The locked read, the key asked again (a retry's first send may have committed while it
    waited), the deal agreed with (with who entered it, whom the answer names), the game and
    the audit entry, and the savepoint and its release: the audit entry and the answer find
    the game and its season on the locked read."""
    assert send(phone(ann), game, 1).status_code == 201
    other = phone(cat)
    other.get("/api/games/")  # the token is read once, then remembered
    with django_assert_num_queries(7):
        response = send(other, game, 1, key="their-phone-1")
    assert response.status_code == 200, response.content
    assert response.json()["entered_by"] == ann.username
    game.refresh_from_db()
    assert (game.home_vouched, game.away_vouched) == (1, 1)


def test_a_refused_deal_asks_permissions_once_and_says_why(game, eve):
    client = phone(eve)  # another team's player

    response, path = probe(lambda: send(client, game, 1), start="GameViewSet.deals")

    assert response.status_code == 403
    assert "Only the players of these two teams" in response.json()["detail"]
    # One question from the service; the league's check asks the kernel back only whether
    # the outsider is a league admin (their groups).
    assert path.calls_between[SERVICES, PERMISSIONS] == 1, path.report()
    assert path.calls_between["league.checks", PERMISSIONS] == 1, path.report()
    assert not Deal.objects.filter(game=game).exists()


# --- The statements -----------------------------------------------------------------------------


def test_a_deal_costs_six_statements(game, ann, django_assert_num_queries):
    """The game read locked (with the sender's teams and the key's deal), the deal, the game,
    the audit entry, and the transaction's savepoint and its release (BEGIN and COMMIT outside
    a test): no read of the token, the deals before it or the open disputes."""
    client = phone(ann)
    assert send(client, game, 1).status_code == 201
    with django_assert_num_queries(6):
        response = send(client, game, 2)
    assert response.status_code == 201, response.content
    game.refresh_from_db()
    assert (game.deal_count, game.home_score, game.away_score) == (2, 42, 40)


def test_a_deal_checked_from_the_stored_scores_is_refused_as_before(game, ann):
    """The scorer checks the next deal from the game's stored scores: a dealer out of turn is
    still refused with the table's words, and nothing is stored."""
    client = phone(ann)
    assert send(client, game, 1).status_code == 201
    response = send(client, game, 2, dealer=0)
    assert response.status_code == 400
    assert response.json()["field"] == "dealer"
    assert "Cat" in response.json()["detail"]  # seat 1, by its player's name
    assert Deal.objects.filter(game=game).count() == 1


def test_a_game_start_costs_a_fixed_handful_of_statements(match, ann):
    client = phone(ann)
    client.get("/api/games/")  # the token is read once, then remembered
    body = {"key": "start-1", "seats": ["Ann", "Cat", "Bob", "Dan"], "first_dealer": 0}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/matches/{match.pk}/games/", body, format="json")
    assert response.status_code == 201, response.content
    assert len(queries.captured_queries) <= GAME_START_STATEMENTS, "\n".join(
        q["sql"][:100] for q in queries.captured_queries
    )


GAME_START_STATEMENTS = 10  # 22 before: see bench/README.md


# --- The token's user, remembered ----------------------------------------------------------------


def test_a_token_is_read_from_the_database_once(game, ann):
    client = phone(ann)
    with CaptureQueriesContext(connection) as first:
        assert send(client, game, 1).status_code == 201
    with CaptureQueriesContext(connection) as second:
        assert send(client, game, 2).status_code == 201
    assert token_reads(first) == 1
    assert token_reads(second) == 0


def test_a_revoked_token_is_refused_at_once(game, ann):
    client = phone(ann)
    assert send(client, game, 1).status_code == 201  # remembered
    assert client.delete("/api/auth/token/").status_code == 204
    assert send(client, game, 2).status_code == 401
    assert Deal.objects.filter(game=game).count() == 1


def test_a_rotated_token_is_refused_and_the_new_one_works(game, ann, settings):
    settings.API_TOKEN_DAYS = 30
    old = phone(ann)
    assert send(old, game, 1).status_code == 201  # remembered
    token = Token.objects.get(user=ann)
    token.created = timezone.now() - timedelta(days=31)
    token.save()
    new = phone(ann)  # signing in again replaces the expired token
    assert send(old, game, 2).status_code == 401
    assert send(new, game, 2).status_code == 201


def test_an_expired_token_is_refused_though_remembered(game, ann, settings):
    client = phone(ann)
    assert send(client, game, 1).status_code == 201  # remembered
    settings.API_TOKEN_DAYS = 0  # every token is now past its age
    response = send(client, game, 2)
    assert response.status_code == 401
    assert "expired" in response.json()["detail"]


def test_a_deactivated_user_is_refused_at_once(game, ann):
    client = phone(ann)
    assert send(client, game, 1).status_code == 201  # remembered
    ann.is_active = False
    ann.save()
    assert send(client, game, 2).status_code == 401
    assert Deal.objects.filter(game=game).count() == 1


def test_a_new_password_signs_the_remembered_token_out(game, ann):
    client = phone(ann)
    assert send(client, game, 1).status_code == 201  # remembered
    ann.set_password("a-brand-new-one-456")
    ann.save()
    assert send(client, game, 2).status_code == 401


def test_a_changed_user_is_read_again(game, ann):
    """Any save of the user forgets the remembered copy: the next deal is entered under the
    account as it is now."""
    client = phone(ann)
    assert send(client, game, 1).status_code == 201  # remembered
    ann.username = "ann-at-the-bar"
    ann.save()
    response = send(client, game, 2)
    assert response.status_code == 201
    assert response.json()["entered_by"] == "ann-at-the-bar"


# --- A retry that waits for the lock -----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_retry_waiting_on_its_first_send_gets_the_stored_deal(match, ann):
    """A phone sends deal 1 without a number, loses the answer and sends it again while the
    first is still being written: the retry waits for the game's lock and then gets the stored
    deal back, not a refusal of deal 1's numbers as deal 2 (on PostgreSQL, the locked read's
    subqueries see the database from before the wait)."""
    from league.services.deals import deal_record
    from league.services.games import game_start

    game = game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    first_in = threading.Event()
    answers: list[object] = []

    def first() -> None:
        try:
            with transaction.atomic():
                deal_record(game=game, user=ann, number=None, data=plain_deal(0), key="same")
                first_in.set()
                time.sleep(1.0)  # the retry is now waiting for the game's lock
        finally:
            connection.close()

    def retry() -> None:
        first_in.wait(5)
        try:
            answers.append(
                deal_record(game=game.pk, user=ann, number=None, data=plain_deal(0), key="same")
            )
        except Exception as exc:  # what the phone would be told instead
            answers.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=retry)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == 1
    deal, created = answers[0]  # type: ignore[misc]
    assert (deal.number, created) == (1, False)
    assert Deal.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_start_retry_waiting_on_its_first_send_gets_the_game(match, ann):
    """The same for a game start: the retry that waited gets the game its key started, not
    "Game 1 is still being played"."""
    from league.services.games import game_start

    seats = ["Ann", "Cat", "Bob", "Dan"]
    first_in = threading.Event()
    answers: list[object] = []

    def first() -> None:
        try:
            with transaction.atomic():
                answers.append(game_start(match=match, user=ann, seats=seats, key="start"))
                first_in.set()
                time.sleep(1.0)  # the retry is now waiting for the match's lock
        finally:
            connection.close()

    def retry() -> None:
        first_in.wait(5)
        try:
            answers.append(game_start(match=match.pk, user=ann, seats=seats, key="start"))
        except Exception as exc:  # what the phone would be told instead
            answers.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=retry)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(isinstance(a, Game) for a in answers), answers
    assert {a.pk for a in answers} == {Game.objects.get(match=match).pk}  # type: ignore[union-attr]
