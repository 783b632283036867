"""Season archives carry the sub list and the games a sub sat in (docs/formats/season-archive.md):
the round trip keeps them, an archive without subs reads and writes as before, and a seat no
team or sub list fills is refused naming where."""

from __future__ import annotations

import copy
import json

import pytest

from league.models import GameSeat, Season, SeasonSub
from league.selectors.subs import subs_of
from league.services.archive import ArchiveRefused, export_season
from league.services.archive_import import import_season
from tests.factories import game_summary, make_archive, row_counts, wipe_league_data

pytestmark = pytest.mark.django_db


def with_gus(archive: dict) -> dict:
    """``archive`` with Gus on the sub list, sitting for Bob in week 1's first game."""
    data = copy.deepcopy(archive)
    data["subs"] = ["Gus"]
    games = data["weeks"][0]["matches"][0]["games"]
    games[0] = json.loads(json.dumps(games[0]).replace('"Bob"', '"Gus"'))
    assert "Gus" in games[0]["seats"]
    return data


def test_an_archive_with_a_sub_imports_the_list_and_the_seat_and_round_trips():
    data = with_gus(make_archive())
    season = import_season(copy.deepcopy(data))
    assert [p.name for p in subs_of(season)] == ["Gus"]
    seat = GameSeat.objects.get(player__name="Gus")
    assert seat.is_sub and seat.game.match.week.number == 1
    before = game_summary(season)
    exported = export_season(season).archive
    assert exported["subs"] == ["Gus"]
    assert "Gus" in exported["weeks"][0]["matches"][0]["games"][0]["seats"]
    wipe_league_data()
    again = import_season(copy.deepcopy(exported))
    assert game_summary(again) == before
    assert export_season(again).archive == exported
    assert GameSeat.objects.get(player__name="Gus").is_sub


def test_the_playoff_nights_rule_round_trips():
    data = make_archive()
    data["season"]["playoff_min_nights"] = 2
    season = import_season(copy.deepcopy(data))
    assert season.playoff_min_nights == 2
    assert export_season(season).archive["season"]["playoff_min_nights"] == 2


def test_an_archive_without_subs_imports_and_exports_as_before():
    season = import_season(make_archive())
    assert not SeasonSub.objects.exists()
    exported = export_season(season).archive
    assert "subs" not in exported
    assert "playoff_min_nights" not in exported["season"]


def _refused(data: dict, match: str) -> None:
    before = row_counts()
    with pytest.raises(ArchiveRefused) as info:
        import_season(data)
    assert match in info.value.message, info.value.message
    assert row_counts() == before


def test_a_seat_not_on_the_sub_list_is_refused_naming_where():
    data = with_gus(make_archive())
    del data["subs"]
    _refused(data, "Week 1, Fifteen Two v Nobs, game 1: Unknown player 'Gus'")


def test_a_sub_who_plays_for_a_team_is_refused():
    data = make_archive()
    data["subs"] = ["Dan"]
    _refused(data, "Sub Dan: Dan plays for Nobs: a sub is on no team.")


def test_two_subs_for_a_team_whose_players_are_both_absent_import_as_at_the_table():
    data = with_gus(make_archive())
    data["subs"] = ["Gus", "Hal"]
    games = data["weeks"][0]["matches"][0]["games"]
    games[0] = json.loads(json.dumps(games[0]).replace('"Ann"', '"Hal"'))
    season = import_season(copy.deepcopy(data))
    subs = GameSeat.objects.filter(is_sub=True).order_by("player__name")
    assert [(s.player.name, s.game.number) for s in subs] == [("Gus", 1), ("Hal", 1)]
    exported = export_season(season).archive
    assert {"Gus", "Hal"} <= set(exported["weeks"][0]["matches"][0]["games"][0]["seats"])


def test_a_sub_seated_twice_is_refused_as_at_the_table():
    data = with_gus(make_archive())
    games = data["weeks"][0]["matches"][0]["games"]
    games[0] = json.loads(json.dumps(games[0]).replace('"Ann"', '"Gus"'))
    _refused(data, "only one seat")
    assert not Season.objects.exists()
