"""What one scorecard costs on its way from a phone to the database (as
tests/api/test_deal_path.py pins the league's deal): the SQL statements of a card, the
tournament's row left unlocked (a card locks its table's row alone, so the 300 tables of a
national event never queue on one row), the table read once and the answer built without a
serializer, saying what a fresh read of the table says.

Before (bench/README.md, ``bench/tournament_load.py --card-cost``): 25 statements a card, 9 of
them inside the transaction that held the tournament's row lock (the view's read of the table
and its prefetches, the player, the key twice, the cards three times, the tournament twice, and
a re-read of the table with the groups and teams of the sender for the answer). Then 8: the
table read before the transaction and again, locked, inside it, then its cards. Now, on PostgreSQL,
6 for a table's first card and 7 for its second (a league deal: 6): the table's row locked,
then one read with the cards (SQLite, which locks itself whole: 5 and 6)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.kernel.errors import Locked
from league.models import AuditEntry
from tests.factories import all_at_once
from tests.pathprobe import probe
from tests.tournaments.conftest import user_of
from tournaments import services
from tournaments.models import RoundStatus, Scorecard, TableGame, TableState, Tournament

pytestmark = pytest.mark.django_db

# In the transaction: the table's row locked (a statement of its own on PostgreSQL: a read
# that took the lock itself could see the cards from before the other side's committed; SQLite
# locks the whole database for a write), then read in one statement with its round,
# tournament, entrants and cards, the sender's side and the key's table; the card and the
# audit entry; with the transaction's savepoint and its release (BEGIN and COMMIT outside a
# test). The table's first card leaves it open, its result none: no write of the table. The
# second writes its state (verified, or with the checkers): one more. The league's deal costs 6
# (tests/api/test_deal_path.py).
LOCK = 1 if connection.features.has_select_for_update else 0
FIRST_CARD = 5 + LOCK
SECOND_CARD = FIRST_CARD + 1
DEAL = 6
# The first card of a round still only seated lets its table go (a rollback and its release)
# and starts again, marking the round started before it locks the table: the lock, the read, a
# rollback and its release, the savepoint again and the round's update, once a round.
FIRST_OF_ROUND = FIRST_CARD + 5 + LOCK
# ACC Rule 12.2 settling a disagreement reads the verified games (entrants, games, byes) for
# the apparent qualifiers; the ruling is written with the card, its audit with the card's; and
# when the ruling changed an apparent qualifier's card, that entrant's players are read to be
# told (12.2(i)) and the messages they are owed written, in one insert (the outbox).
ACC_RULING = SECOND_CARD + 5


def phone(user) -> APIClient:
    """A phone signed in with an API token whose user is already remembered (as after the
    first request of the night: tests/api/test_deal_path.py pins the token's one read)."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    assert client.get("/api/tournaments/").status_code == 200
    return client


def send(client: APIClient, game: TableGame, *, winner: int, score: int, key: str):
    body = {"winner": winner, "loser_score": score, "key": key}
    return client.post(f"/api/tournament-tables/{game.pk}/scorecards/", body, format="json")


def fresh(client: APIClient, game: TableGame) -> dict:
    """The table as the sender's phone reads it afterwards (the selectors' full read)."""
    return client.get(f"/api/tournament-tables/{game.pk}/").json()


@pytest.fixture
def tables(night, director, field):
    """Round 1 seated (seven entrants: three tables and a bye), not yet started."""
    rnd = services.round_seat_next(user=director, tournament=night)
    return list(rnd.games.select_related("first", "second").order_by("table"))


@pytest.fixture
def started(tables, director):
    services.round_start(user=director, round=tables[0].round)
    return tables


def statements(run) -> tuple[object, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        answer = run()
    return answer, [q["sql"] for q in queries.captured_queries]


def test_a_first_card_costs_five_statements_and_answers_as_a_fresh_read(started):
    game = started[0]
    client = phone(user_of(game.first))
    answer, sqls = statements(
        lambda: send(client, game, winner=game.first_id, score=90, key="card-1")
    )
    assert answer.status_code == 201, answer.content
    assert len(sqls) == FIRST_CARD <= DEAL, "\n".join(s[:120] for s in sqls)
    assert answer.json() == fresh(client, game)
    assert answer.json()["state"] == "entered"
    assert answer.json()["cards_in"] == [game.first.name]
    assert (answer.json()["can_enter"], answer.json()["can_settle"]) == (False, False)
    card = Scorecard.objects.get(game=game)
    assert (card.side_id, card.winner_id, card.loser_score, card.key) == (
        game.first_id,
        game.first_id,
        90,
        "card-1",
    )
    assert AuditEntry.objects.filter(action="scorecard_submit", object_id=str(game.pk)).count() == 1


def test_the_first_card_of_a_seated_round_starts_it_for_one_statement_more(tables):
    game = tables[0]
    client = phone(user_of(game.first))
    answer, sqls = statements(
        lambda: send(client, game, winner=game.first_id, score=90, key="card-1")
    )
    assert answer.status_code == 201, answer.content
    assert len(sqls) == FIRST_OF_ROUND, "\n".join(s[:120] for s in sqls)
    game.round.refresh_from_db()
    assert game.round.status == RoundStatus.STARTED
    # The next table's first card finds the round started: no statement for it.
    other = tables[1]
    client = phone(user_of(other.first))
    answer, sqls = statements(
        lambda: send(client, other, winner=other.second_id, score=70, key="card-2")
    )
    assert answer.status_code == 201 and len(sqls) == FIRST_CARD


def test_a_second_card_that_agrees_verifies_the_table_in_six_statements(started):
    game = started[0]
    first, second = phone(user_of(game.first)), phone(user_of(game.second))
    assert send(first, game, winner=game.first_id, score=90, key="card-1").status_code == 201
    answer, sqls = statements(
        lambda: send(second, game, winner=game.first_id, score=90, key="card-2")
    )
    assert answer.status_code == 201, answer.content
    assert len(sqls) == SECOND_CARD <= DEAL + LOCK, "\n".join(s[:120] for s in sqls)
    assert answer.json() == fresh(second, game)
    assert answer.json()["state"] == "verified"
    assert answer.json()["winner"] == {"id": game.first_id, "name": game.first.name}
    game.refresh_from_db()
    assert (game.status, game.winner_id, game.loser_score) == (
        TableState.VERIFIED,
        game.first_id,
        90,
    )
    assert game.verified_at is not None


def test_a_second_card_that_disagrees_goes_to_the_checkers_in_six_statements(started):
    game = started[0]
    first, second = phone(user_of(game.first)), phone(user_of(game.second))
    assert send(first, game, winner=game.first_id, score=90, key="card-1").status_code == 201
    answer, sqls = statements(
        lambda: send(second, game, winner=game.first_id, score=91, key="card-2")
    )
    assert answer.status_code == 201, answer.content
    assert len(sqls) == SECOND_CARD <= DEAL + LOCK, "\n".join(s[:120] for s in sqls)
    assert answer.json() == fresh(second, game)
    assert answer.json()["state"] == "mismatch"
    game.refresh_from_db()
    assert (game.status, game.winner_id) == (TableState.MISMATCH, None)


def test_a_disagreement_acc_rule_12_2_settles_costs_three_reads_more(started, night, director):
    services.tournament_update(user=director, tournament=night, changes={"acc_rules": True})
    game = started[0]
    first, second = phone(user_of(game.first)), phone(user_of(game.second))
    assert send(first, game, winner=game.first_id, score=90, key="card-1").status_code == 201
    answer, sqls = statements(
        lambda: send(second, game, winner=game.first_id, score=91, key="card-2")
    )
    assert answer.status_code == 201, answer.content
    assert len(sqls) == ACC_RULING, "\n".join(s[:120] for s in sqls)
    assert answer.json() == fresh(second, game)
    assert answer.json()["acc_rule"].startswith("12.2")
    assert answer.json()["state"] == "settled"
    cards = list(Scorecard.objects.filter(game=game).order_by("at", "pk"))
    assert [(c.key, c.by_checker) for c in cards] == [
        ("card-1", False),
        ("card-2", False),
        (None, True),
    ]
    assert cards[-1].acc_clause == answer.json()["acc_rule"]
    # The rule's audit entry first, then the card's, as each was decided.
    trail = AuditEntry.objects.filter(object_id=str(game.pk), object_type="TableGame")
    assert list(trail.order_by("pk").values_list("action", flat=True)) == [
        "scorecard_submit",
        "scorecard_acc_resolve",
        "scorecard_submit",
    ]
    game.refresh_from_db()
    assert game.status == TableState.VERIFIED


def test_a_card_never_locks_the_tournament_row(started):
    game = started[0]
    client = phone(user_of(game.first))
    (answer, path) = probe(
        lambda: statements(lambda: send(client, game, winner=game.first_id, score=90, key="k")),
        start="TableViewSet.scorecards",
    )
    response, sqls = answer
    assert response.status_code == 201, response.content
    assert "tournaments.services._common._lock" not in path.entered, path.report()
    locks = [s for s in sqls if "FOR UPDATE" in s]
    if connection.features.has_select_for_update:  # PostgreSQL: the table's row alone
        assert len(locks) == 1, locks
        assert locks[0].startswith('SELECT "tournaments_tablegame".id FROM "tournaments_tablegame"')
        assert "JOIN" not in locks[0], locks
    else:  # SQLite locks the whole database for a write: nothing to name
        assert locks == []


def test_a_key_already_used_at_another_table_is_refused_and_writes_nothing(started):
    """The key's table comes with the card's one read: the card is refused there, before any
    write, and the transaction lets its table go."""
    game, other = started[0], started[1]
    client = phone(user_of(game.first))
    assert send(client, game, winner=game.first_id, score=90, key="card-1").status_code == 201
    mover = phone(user_of(other.first))
    answer, sqls = statements(
        lambda: send(mover, other, winner=other.first_id, score=90, key="card-1")
    )
    assert answer.status_code == 409 and answer.json()["field"] == "key"
    assert not any(s.startswith(("INSERT", "UPDATE", "DELETE")) for s in sqls), sqls
    assert len([s for s in sqls if s.startswith("SELECT")]) == 1 + LOCK, sqls
    assert not Scorecard.objects.filter(game=other).exists()


def test_a_card_for_a_table_that_does_not_exist_is_not_found(started):
    client = phone(user_of(started[0].first))
    missing = TableGame.objects.order_by("-pk").first().pk + 1  # type: ignore[union-attr]
    answer = client.post(
        f"/api/tournament-tables/{missing}/scorecards/",
        {"winner": started[0].first_id, "loser_score": 90},
        format="json",
    )
    assert answer.status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_card_goes_in_while_another_holds_the_tournament_row(night, director, field):
    """On PostgreSQL: a director's change holding the tournament's row lock (a late entrant,
    say) no longer holds up the tables' cards; the card waits for nothing but its table."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite locks the whole database for a write; CI runs this on PostgreSQL")
    rnd = services.round_seat_next(user=director, tournament=night)
    services.round_start(user=director, round=rnd)
    game = rnd.games.select_related("first", "second").order_by("table").first()
    client = phone(user_of(game.first))
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                Tournament.objects.select_for_update().get(pk=night.pk)
                held.set()
                release.wait(20)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        with connection.cursor() as cursor:  # a card that waited for the row would fail here
            cursor.execute("SET lock_timeout = '5s'")
        answer = send(client, game, winner=game.first_id, score=90, key="held")
        assert answer.status_code == 201, answer.content
    finally:
        release.set()
        holder.join()
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")
    assert Scorecard.objects.filter(game=game, key="held").exists()


# --- What the tournament's lock kept, kept without it --------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_a_seat_swap_and_a_first_card_at_once_never_pass_each_other(
    night, director, field, attempt
):
    """A director swaps a table's first entrant with the bye while that entrant's first card
    of the round comes in: either the card is in and the swap is refused (the round has
    started), or the swap is done and the card is refused (not at this table any more); never
    a card at a table its sender no longer sits at."""
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.select_related("first", "second").order_by("table").first()
    bye = rnd.byes.select_related("entrant").get().entrant
    client = phone(user_of(game.first))

    def card():
        return send(client, game, winner=game.first_id, score=90, key=f"swap-{attempt}")

    def swap():
        return services.round_swap(user=director, round=rnd, a=game.first, b=bye)

    sent, swapped = all_at_once([card, swap])
    game.refresh_from_db()
    stored = list(Scorecard.objects.filter(game=game))
    if stored:
        assert sent.status_code == 201, sent.content
        assert isinstance(swapped, Locked), swapped
        assert stored[0].side_id in (game.first_id, game.second_id)
    else:
        assert not isinstance(swapped, Exception), swapped
        # Refused: its sender is not at the table (403), or, read after the swap, its winner
        # is not (400).
        assert sent.status_code in (400, 403), sent.content
        assert bye.pk in (game.first_id, game.second_id)


@pytest.mark.django_db(transaction=True)
def test_one_key_sent_to_two_tables_at_once_stores_one_card(night, director, field):
    """Two tables no longer share a lock: one key posted at both at once stores one card, and
    the other send is told the key was used (a conflict, not a server error)."""
    rnd = services.round_seat_next(user=director, tournament=night)
    services.round_start(user=director, round=rnd)
    one, two = rnd.games.select_related("first", "second").order_by("table")[:2]
    clients = [phone(user_of(one.first)), phone(user_of(two.first))]
    calls = [
        lambda: send(clients[0], one, winner=one.first_id, score=90, key="shared"),
        lambda: send(clients[1], two, winner=two.first_id, score=90, key="shared"),
    ]
    answers = all_at_once(calls)
    assert sorted(a.status_code for a in answers) == [201, 409], [a.content for a in answers]
    assert Scorecard.objects.filter(key="shared").count() == 1


# --- The path through our code, as the deal's ---------------------------------------------------

SERVICES = "tournaments.services.scorecards"
READ = "tournaments.services.card_read"
PERMISSIONS = "league.kernel.permissions"
LIFECYCLE = "league.kernel.lifecycle"


def test_a_card_reads_its_table_once_and_builds_no_serializer(started):
    game = started[0]
    first, second = phone(user_of(game.first)), phone(user_of(game.second))
    assert send(first, game, winner=game.first_id, score=90, key="card-1").status_code == 201

    answer, path = probe(
        lambda: send(second, game, winner=game.first_id, score=90, key="card-2"),
        start="TableViewSet.scorecards",
    )

    assert answer.status_code == 201, answer.content
    assert answer.json()["state"] == "verified"
    # The service and its one read are each entered once; the permissions asked by the
    # service (the refusal, who the card is recorded under) and by the answer (what you may
    # do next), no more.
    for module in (SERVICES, READ):
        assert path.entries[module] == 1, path.report()
    assert path.entries[PERMISSIONS] <= 4, path.report()
    assert f"{READ}.card_table" in path.entered
    # The answer is built in one function, not by a serializer's fields per request.
    assert "tournaments.api.serializers.table_answer" in path.entered
    assert not any("TableSerializer" in f for f in path.entered), path.report()
    # 70 functions, 206 calls and 28 re-entries before the one read (bench/README.md), 67, 207
    # and 24 after it, 68, 209 and 27 once the table's state became ``TableState``; what is
    # left is mostly the lifecycle asked of the table's cards (the refusal, the state, the
    # answer), each asking its cards again.
    assert path.functions <= 68, path.report()
    assert len(path.calls) <= 209, path.report()
    assert path.reentered <= 27, path.report()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_both_cards_of_a_table_at_once_verify_it(night, director, field, attempt):
    """The two players of a table send their cards in the same instant: the second to take the
    table's row waits for the first and then sees its card (not the table as it was before it
    waited), so the two agreeing cards verify the table."""
    rnd = services.round_seat_next(user=director, tournament=night)
    services.round_start(user=director, round=rnd)
    game = rnd.games.select_related("first", "second").order_by("table").first()
    clients = [phone(user_of(game.first)), phone(user_of(game.second))]
    calls = [
        lambda client=client, n=n: send(
            client, game, winner=game.first_id, score=90, key=f"both-{attempt}-{n}"
        )
        for n, client in enumerate(clients)
    ]
    answers = all_at_once(calls)
    assert sorted(a.status_code for a in answers) == [201, 201], [a.content for a in answers]
    game.refresh_from_db()
    assert (game.status, game.winner_id, game.loser_score) == (
        TableState.VERIFIED,
        game.first_id,
        90,
    )
    assert Scorecard.objects.filter(game=game).count() == 2
