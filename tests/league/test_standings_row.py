"""The standings row declared once, tie-breaks named in the reader's language, games not yet
confirmed shown but never counted, and the standings computed in a fixed number of queries."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from league.models import Game, GameStatus, Match, StandingsSnapshot, Week
from league.ranking import METRICS, TIEBREAKS, TeamRecord
from league.selectors.standings import compute_standings, standings_for_season
from league.services.archive import STANDINGS_FIELDS
from league.standings_row import ROW_KEYS, STANDINGS_ROW
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def weeks_decide(season, home_team, away_team, other_team):
    """Fifteen Two and Nobs level on 2 points; Fifteen Two won a week, Nobs none.

    Week 1: Fifteen Two beat Nobs 2-1. Week 2: His Heels beat Nobs 2-1.
    Week 3: His Heels beat Fifteen Two 3-0."""
    weeks = [Week.objects.create(season=season, number=n) for n in (1, 2, 3)]
    for week, (home, away), winners in [
        (weeks[0], (home_team, away_team), [home_team, home_team, away_team]),
        (weeks[1], (other_team, away_team), [other_team, other_team, away_team]),
        (weeks[2], (other_team, home_team), [other_team] * 3),
    ]:
        match = Match.objects.create(week=week, home=home, away=away)
        for number, winner in enumerate(winners, start=1):
            factories.confirmed_game(match, number, winner, 10)
    return season


def row_of(page: str, team: str) -> str:
    match = re.search(rf">{re.escape(team)}</a>.*?</tr>", page)
    assert match, f"no row for {team}"
    return match.group(0)


def test_the_french_page_names_the_tie_break_that_placed_a_team_in_french(weeks_decide):
    url = f"/seasons/{weeks_decide.pk}/standings/"
    french = Client().get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<td class="col-p2">victoires de semaine</td>' in row_of(french, "Fifteen Two")
    # ... and on a phone, where that column is not shown, under the team's name
    note = '<small class="placed-note">Départagé par victoires de semaine</small>'
    assert note in row_of(french, "Fifteen Two")
    assert "weeks won" not in french
    assert "Départagé par" in french
    english = Client().get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<td class="col-p2">weeks won</td>' in row_of(english, "Fifteen Two")


def test_the_french_seeding_page_names_the_tie_breaks_in_french(weeks_decide):
    page = Client().get(f"/seasons/{weeks_decide.pk}/seeding/", HTTP_ACCEPT_LANGUAGE="fr")
    body = page.content.decode()
    assert "(victoires de semaine)" in body and "weeks won" not in body


def test_stored_standings_keep_the_tie_break_key_and_the_api_its_english_name(weeks_decide):
    data = compute_standings(weeks_decide)
    rows = {r["team"]: r for r in data["standings"]}
    assert rows["Fifteen Two"]["decided_by_key"] == "weeks_won"
    assert rows["His Heels"]["decided_by_key"] == "points"
    api = APIClient().get(f"/api/seasons/{weeks_decide.pk}/standings/").json()
    placed = {r["team"]: r["decided_by"] for r in api["standings"]}
    assert placed == {"His Heels": "league points", "Fifteen Two": "weeks won", "Nobs": "weeks won"}
    seeding = APIClient().get(f"/api/seasons/{weeks_decide.pk}/seeding/").json()
    assert seeding["decided_by"] == ["league points", "weeks won", "weeks won"]


def test_every_tie_break_is_a_metric_with_a_key_a_field_and_translated_names():
    fields = set(TeamRecord.__dataclass_fields__)
    for key, metric in METRICS.items():
        assert metric.key == key and metric.field in fields
        with translation.override("fr"):
            french = (str(metric.name), str(metric.abbr))
        assert all(french), key
        assert metric.english == str(metric.name)  # outside a French request: English
    with translation.override("fr"):
        assert str(TIEBREAKS["weeks_won"].name) == "victoires de semaine"


def test_the_archive_command_and_api_columns_all_come_from_the_one_declaration(played_season):
    data = compute_standings(played_season)
    assert all(tuple(row) == ROW_KEYS for row in data["standings"])
    # The archive's format: exactly these columns in this order (docs/formats/season-archive.md)
    assert STANDINGS_FIELDS == (
        "rank",
        "team",
        "played",
        "won",
        "lost",
        "points",
        "weeks_won",
        "skunks",
        "spread",
    )
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    row = schema.json()["components"]["schemas"]["StandingsRow"]
    assert list(row["properties"]) == [c.key for c in STANDINGS_ROW]


def test_unconfirmed_and_disputed_games_are_shown_per_team_never_counted(client, played_season):
    games = Game.objects.filter(match__week__number=1).order_by("number")
    games.filter(number=1).update(status=GameStatus.FINISHED)
    games.filter(number=2).update(status=getattr(GameStatus, "DISPUTED", "disputed"))
    rows = {r["team"]: r for r in compute_standings(played_season)["standings"]}
    ft, nobs, heels = rows["Fifteen Two"], rows["Nobs"], rows["His Heels"]
    assert (ft["played"], ft["won"], ft["skunks"]) == (4, 2, 0)  # the skunk win is not counted
    assert (nobs["played"], nobs["won"]) == (1, 0)
    assert (ft["pending"], ft["disputed"]) == (1, 1) == (nobs["pending"], nobs["disputed"])
    assert (heels["pending"], heels["disputed"]) == (0, 0)

    page = client.get(f"/seasons/{played_season.pk}/standings/").content.decode()
    assert (
        "Not counted until confirmed: 1 game waiting for a team to confirm, 1 disputed, waiting"
        " for a judge." in page
    )
    assert ">Unconfirmed</a></th>" in page and ">Disputed</a></th>" in page
    cells = re.findall(r'<td class="num[^"]*">(-?\d+)</td>', row_of(page, "Nobs"))
    assert cells[-2:] == ["1", "1"]  # its unconfirmed and disputed games
    games.filter(number=1).update(status=GameStatus.DISPUTED)
    played_season.results_version += 1  # what a real write does, so the page is drawn afresh
    played_season.save()
    page = client.get(
        f"/seasons/{played_season.pk}/standings/", HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Pas encore comptées : 2 contestées, en attente d'un arbitre." in page


def test_nothing_waiting_means_no_note(client, played_season):
    page = client.get(f"/seasons/{played_season.pk}/standings/").content.decode()
    assert "Not counted until confirmed" not in page


def test_computed_standings_read_the_season_in_one_query_however_many(
    played_season, django_assert_num_queries, league_admin
):
    played_season.refresh_from_db()
    with django_assert_num_queries(1):  # the teams and their matches' tallies
        small = compute_standings(played_season)
    teams = [factories.TeamFactory(season=played_season, name=f"Extra {i}") for i in range(6)]
    week = Week.objects.create(season=played_season, number=9)
    for home, away in zip(teams[::2], teams[1::2], strict=True):
        match = Match.objects.create(week=week, home=home, away=away)
        for number in (1, 2, 3):
            factories.confirmed_game(match, number, home if number < 3 else away, 7)
    played_season.refresh_from_db()
    with django_assert_num_queries(1):
        big = compute_standings(played_season)
    assert len(big["standings"]) == len(small["standings"]) + 6


def test_the_computed_visitor_page_costs_four_queries(played_season, django_assert_num_queries):
    url = f"/seasons/{played_season.pk}/standings/"
    # stored page? the season, its snapshot, its teams with their matches' tallies
    with django_assert_num_queries(4):
        assert Client().get(url).status_code == 200


def test_a_snapshot_of_an_older_row_shape_is_recomputed_not_served(played_season):
    played_season.refresh_from_db()
    old = compute_standings(played_season)
    for row in old["standings"]:
        del row["pending"], row["disputed"], row["decided_by_key"]
    StandingsSnapshot.objects.create(
        season=played_season, results_version=played_season.results_version, data=old
    )
    data = standings_for_season(played_season)
    assert tuple(data["standings"][0]) == ROW_KEYS


def test_the_sql_tally_matches_counting_game_by_game(played_season):
    """The aggregate gives what counting each confirmed game once for each side gives."""
    expected: dict[str, dict[str, int]] = {}
    for game in Game.objects.filter(status=GameStatus.CONFIRMED).select_related("match"):
        home, away = game.match.home_id, game.match.away_id
        for team, points in ((home, game.home_points), (away, game.away_points)):
            row = expected.setdefault(team, {"played": 0, "won": 0, "points": 0, "spread": 0})
            row["played"] += 1
            row["points"] += points
            won = game.winner_id == team
            row["won"] += won
            row["spread"] += game.margin if won else -game.margin
    rows = compute_standings(played_season)["standings"]
    got = {r["team_id"]: {k: r[k] for k in ("played", "won", "points", "spread")} for r in rows}
    assert got == expected


def python_records(season) -> dict[int, TeamRecord]:
    """The season's records counted game by game in Python: the oracle for the SQL tally."""
    records = {t.pk: TeamRecord(team_id=t.pk, name=t.name) for t in season.teams.all()}
    balance: dict[tuple[int, int], int] = {}
    by_match: dict[tuple[int, int, int], list[bool]] = {}  # (team, match, week) -> won or lost
    games = Game.objects.filter(match__week__season=season, match__week__is_playoff=False)
    for game in games.select_related("match"):
        home, away = game.match.home_id, game.match.away_id
        if game.status in (GameStatus.FINISHED, GameStatus.DISPUTED):
            for team in (home, away):
                if game.status == GameStatus.FINISHED:
                    records[team].pending += 1
                else:
                    records[team].disputed += 1
        if game.status != GameStatus.CONFIRMED:
            continue
        for team, other, points in ((home, away, game.home_points), (away, home, game.away_points)):
            record = records[team]
            won = game.winner_id == team
            record.played += 1
            record.won += won
            record.lost += not won
            record.points += points
            record.spread += game.margin if won else -game.margin
            record.skunks += won and game.skunk_level >= 1
            record.skunks_against += not won and game.skunk_level >= 1
            record.double_skunks += won and game.skunk_level >= 2
            record.h2h_points[other] = record.h2h_points.get(other, 0) + points
            by_match.setdefault((team, game.match_id, game.match.week_id), []).append(won)
    # A week is won once its match is over: all its games confirmed.
    for (team, _match, week), results in by_match.items():
        if len(results) >= season.games_per_match:
            games_up = sum(1 if won else -1 for won in results)
            balance[(team, week)] = balance.get((team, week), 0) + games_up
    for (team, _week), games_up in balance.items():
        records[team].weeks_won += games_up > 0
    return records


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_sql_tally_gives_the_python_tally_on_a_random_season(season, seed):
    """Every field of every record, on a season of random results: confirmed games of every
    skunk level, games waiting, disputed, void or under way, and a playoff week that never
    counts; then the same ranking on both."""
    import random

    from league.ranking import rank_teams
    from league.selectors.standings import season_records

    rng = random.Random(seed)
    teams = [factories.TeamFactory(season=season) for _ in range(6)]
    statuses = [GameStatus.CONFIRMED] * 6 + [
        GameStatus.FINISHED,
        GameStatus.DISPUTED,
        GameStatus.VOID,
        GameStatus.IN_PROGRESS,
    ]
    for number in range(1, 9):
        week = Week.objects.create(season=season, number=number, is_playoff=number == 8)
        order = rng.sample(teams, len(teams))
        for table, (home, away) in enumerate(zip(order[::2], order[1::2], strict=True), 1):
            match = Match.objects.create(week=week, home=home, away=away, table=table)
            for game_number in range(1, rng.randint(1, 5) + 1):
                margin = rng.randint(1, 90)
                skunk = 2 if margin >= 61 else 1 if margin >= 30 else 0
                game = factories.confirmed_game(
                    match, game_number, rng.choice([home, away]), margin, skunk=skunk
                )
                game.status = rng.choice(statuses)
                game.save(update_fields=["status"])
    expected = python_records(season)
    got = {r.team_id: r for r in season_records(season)}
    assert got == expected
    assert sum(r.weeks_won for r in got.values()) > 0 and sum(r.pending for r in got.values())
    for tiebreaks in (list(TIEBREAKS), ["head_to_head", "spread", "draw"]):
        ranked = [
            [(row.record.team_id, row.rank, row.decided_by) for row in table]
            for table in rank_teams(got.values(), tiebreaks=tiebreaks, draw_seed=seed)
        ]
        oracle = [
            [(row.record.team_id, row.rank, row.decided_by) for row in table]
            for table in rank_teams(expected.values(), tiebreaks=tiebreaks, draw_seed=seed)
        ]
        assert ranked == oracle
