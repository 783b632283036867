"""The records kept as results count: the pages read the stored figures, whose statements and
model instances do not grow with the league (a league twice the size loads the same rows), and
the figures follow the results (a game voided, a player renamed, a season published) without
anyone asking for a rebuild; ``manage.py rebuild_records`` rebuilds them on demand."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models.signals import post_init
from django.urls import reverse

from league import models
from league.selectors import records
from league.services.games import game_void
from league.services.people import player_rename
from tests.league.records_league import VariedLeague

pytestmark = pytest.mark.django_db


@contextmanager
def instances() -> Iterator[Counter[str]]:
    """Count the model instances made inside the block, by model name."""
    made: Counter[str] = Counter()

    def count(sender: type, **_kwargs: object) -> None:
        made[sender.__name__] += 1

    post_init.connect(count, weak=False)
    try:
        yield made
    finally:
        post_init.disconnect(count)


def _pages(league: VariedLeague) -> dict[str, str]:
    aces = league.seasons[0].teams.get(name="Aces")
    picker = reverse("league:records_h2h")
    return {
        "skunks": reverse("league:records_skunks"),
        "skunks of a season": reverse("league:records_skunks") + f"?season={league.seasons[1].pk}",
        "streaks": reverse("league:records_streaks"),
        "streaks of a season": reverse("league:records_streaks")
        + f"?season={league.seasons[3].pk}",
        "hands": reverse("league:records_hands"),
        "picker": picker,
        "picker, a team": f"{picker}?team={aces.pk}",
        "team page": reverse("league:team", args=[aces.pk]),
    }


def _measure(client, urls: dict[str, str], django_assert_max_num_queries) -> dict[str, tuple]:
    out = {}
    for name, url in urls.items():
        assert client.get(url).status_code == 200  # stored records rebuilt if not current
        with instances() as made, django_assert_max_num_queries(50) as ctx:
            assert client.get(url).status_code == 200
        # The season filter offers every public season (with its league): not games.
        rest = sum(made.values()) - made["Season"] - made["League"]
        out[name] = (len(ctx.captured_queries), made["Game"], rest)
    return out


def test_a_league_twice_the_size_loads_no_more_rows(client, django_assert_max_num_queries):
    small = VariedLeague()
    urls = _pages(small)
    before = _measure(client, urls, django_assert_max_num_queries)
    games = models.Game.objects.count()
    VariedLeague(prefix="Big ")  # as many games again, in two more leagues
    assert models.Game.objects.count() == 2 * games
    after = _measure(client, urls, django_assert_max_num_queries)
    shown = 3 * 10 * 2 + 30  # three lists of ten streaks (two games each), thirty milestones
    hands = client.get(urls["hands"]).content.decode().count("deal ")
    aces = models.Game.objects.filter(match__home__in=small.seasons[0].teams.filter(name="Aces"))
    aces = (
        aces.count()
        + models.Game.objects.filter(
            match__away__in=small.seasons[0].teams.filter(name="Aces")
        ).count()
    )
    most_games = {
        "skunks": 0,
        "skunks of a season": 0,
        "streaks": shown,
        "streaks of a season": shown,
        "hands": hands,  # the games of the hands it lists: every hand is the page's point
        "picker": 0,
        "picker, a team": 0,
        "team page": aces,  # the team's own games, of its one season
    }
    for name in urls:
        assert after[name][0] == before[name][0], name  # statements
        assert after[name][1] <= most_games[name], (name, after[name])  # games loaded
        assert before[name][1] <= most_games[name], (name, before[name])
    for name in ("skunks", "skunks of a season", "picker, a team", "team page"):
        assert after[name] == before[name], name  # the same page: the same rows


def test_the_pages_statements_are_pinned(client, django_assert_num_queries):
    league = VariedLeague()
    pins = {
        # the seasons to choose from, the stored skunks
        reverse("league:records_skunks"): 2,
        # the season asked for, the seasons, the stored skunks
        reverse("league:records_skunks") + f"?season={league.seasons[0].pk}": 3,
        # the seasons, the stored streaks and milestones, the games they link to
        reverse("league:records_streaks"): 3,
        reverse("league:records_streaks") + f"?season={league.seasons[3].pk}": 4,
        # the seasons, the stored hands, their games
        reverse("league:records_hands"): 3,
        # the seasons, the stored players, the teams
        reverse("league:records_h2h"): 3,
    }
    for url, queries in pins.items():
        client.get(url)  # stored records rebuilt if not current
        with django_assert_num_queries(queries):
            assert client.get(url).status_code == 200, url


def _skunks_of(client, name: str) -> str:
    body = client.get(reverse("league:records_skunks")).content.decode()
    body = body[body.index("<tbody>") :]  # the players' table
    row = body[body.index(f">{name}</a>") :]
    return row[: row.index("</tr>")]


def test_a_voided_game_leaves_the_records(client, judge, django_capture_on_commit_callbacks):
    league = VariedLeague()
    before = records.records_fingerprint(records.public_seasons())
    client.get(reverse("league:records_skunks"))  # stored
    stored = models.RecordsSnapshot.objects.get(scope="all")
    assert stored.fingerprint == before
    # Ann's first skunk given: void it and she has one fewer.
    first = next(
        g
        for g in league.games
        if g.status == models.GameStatus.CONFIRMED
        and g.skunk_level
        and g.forfeit_id is None
        and g.winner.players.filter(name="Ann").exists()
    )
    given = records.skunks_shown(stored.skunks, list(records.public_seasons()))["players"]
    ann = next(line for line in given if line.name == "Ann")
    with django_capture_on_commit_callbacks(execute=True):
        game_void(game=first, user=judge, reason="Played with a short deck.")
    # The worker's recompute (run in-process here) stored the new figures already.
    refreshed = models.RecordsSnapshot.objects.get(scope="all")
    assert refreshed.fingerprint != before
    after = records.skunks_shown(refreshed.skunks, list(records.public_seasons()))["players"]
    assert next(line for line in after if line.name == "Ann").given == ann.given - 1
    assert f'<td class="num">{ann.given - 1}</td>' in _skunks_of(client, "Ann")


def test_a_renamed_player_and_a_published_season_show_at_once(client, league_admin):
    league = VariedLeague()
    client.get(reverse("league:records_skunks"))
    player_rename(player=league.people["Ann"], name="Annabel", user=league_admin)
    body = client.get(reverse("league:records_skunks")).content.decode()
    assert ">Annabel</a>" in body and ">Ann</a>" not in body
    streaks = client.get(reverse("league:records_streaks")).content.decode()
    draft_games = models.Game.objects.filter(match__week__season=league.draft)
    last = draft_games.order_by("pk").last()
    assert f"/games/{last.pk}/" not in streaks
    models.Season.objects.filter(pk=league.draft.pk).update(state=models.SeasonState.PUBLISHED)
    # The draft's games now count: its season is public (and offered by the filter).
    body = client.get(reverse("league:records_skunks") + f"?season={league.draft.pk}")
    assert body.status_code == 200 and "No skunk yet." not in body.content.decode()


def test_the_command_rebuilds_the_stored_records():
    VariedLeague()
    out = StringIO()
    call_command("rebuild_records", stdout=out)
    assert "Records rebuilt: all seasons and 4 season(s)" in out.getvalue()
    assert models.RecordsSnapshot.objects.count() == 5
    every = models.RecordsSnapshot.objects.get(scope="all")
    assert every.fingerprint == records.records_fingerprint(records.public_seasons())
    assert {m[2] for m in every.milestones} == {"games", "wins", "points"}
