"""Season archives: import through the services, all or nothing; export; the round trip."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from league.models import (
    AuditEntry,
    Deal,
    Game,
    GameStatus,
    League,
    Season,
    Team,
)
from league.selectors.standings import compute_standings
from league.services.archive import ArchiveRefused, export_season, standings_rows
from league.services.archive_import import import_season
from league.services.demo import random_game_deals
from league.services.games import game_confirm
from scoring.cards import parse_cards
from scoring.show import score_show
from tests.factories import (
    RULES,
    archive_deal,
    game_summary,
    make_archive,
    play_game,
    row_counts,
    wipe_league_data,
)


def refused(data: Any, *, match: str | None = None) -> str:
    """Import ``data``; it must be refused with nothing stored. Returns the message."""
    before = row_counts()
    with pytest.raises(ArchiveRefused) as info:
        import_season(data)
    assert row_counts() == before, "a refused archive stored something"
    if match is not None:
        assert match in info.value.message, info.value.message
    return info.value.message


@pytest.fixture
def archive() -> dict:
    return make_archive()


# --- import -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_valid_archive_is_imported_through_the_services(archive):
    season = import_season(archive)
    assert season.league.name == "Sunday Pairs"
    assert season.league.skunk_margin == 31 and season.league.requires_confirmation
    assert season.teams.count() == 3
    assert Team.objects.get(season=season, name="Nobs").captain.name == "Cat"
    games = Game.objects.filter(match__week__season=season)
    assert games.count() == 6
    # every imported game finished, so every one is confirmed (by the import, not a person)
    assert set(games.values_list("status", flat=True)) == {GameStatus.CONFIRMED}
    assert all(g.confirmed_at is not None and g.confirmed_by is None for g in games)
    confirmations = AuditEntry.objects.filter(action="game_confirm")
    assert confirmations.count() == 6
    assert all(entry.reason == "season import" for entry in confirmations)
    assert AuditEntry.objects.filter(action="season_import").count() == 1
    deals = sum(len(g["deals"]) for w in archive["weeks"] for m in w["matches"] for g in m["games"])
    assert Deal.objects.filter(game__match__week__season=season).count() == deals
    standings = compute_standings(season)
    assert sum(row["played"] for row in standings["standings"]) == 12
    assert len(standings["seeding"]) == 3


@pytest.mark.django_db
def test_pegging_by_team_and_shows_by_player_map_to_sides_and_seats(archive):
    # Seat the away team's player first: side 0 is then the away team.
    game = archive["weeks"][0]["matches"][0]["games"][0]
    seats = game["seats"]
    game["seats"] = seats[1:] + seats[:1]  # Cat, Bob, Dan, Ann: the same table, turned
    season = import_season(archive)
    stored = Game.objects.get(match__week__season=season, match__week__number=1, number=1)
    assert stored.home_side == 1
    first = stored.deals.get(number=1)
    deal = game["deals"][0]
    assert first.pegging == [deal["pegging"]["Nobs"], deal["pegging"]["Fifteen Two"]]
    names = ["Cat", "Bob", "Dan", "Ann"]
    assert {names[int(k)]: v for k, v in first.shows.items()} == deal["shows"]
    assert names[first.dealer] == deal["dealer"]
    assert {("crib" if k == "crib" else names[int(k)]): v for k, v in first.cards.items()} == (
        deal["cards"]
    )


@pytest.mark.django_db
def test_optional_starter_and_cards_may_be_left_out(archive):
    for week in archive["weeks"]:
        for match in week["matches"]:
            for game in match["games"]:
                for deal in game["deals"]:
                    starter = deal.pop("starter")
                    deal.pop("cards")
                    if starter.startswith("J"):
                        deal["heels"] = True
    season = import_season(archive)
    assert Deal.objects.filter(game__match__week__season=season, cards__isnull=False).count() == 0
    assert Game.objects.filter(match__week__season=season, status="confirmed").count() == 6
    exported = export_season(season).archive
    for week, ours in zip(archive["weeks"], exported["weeks"], strict=True):
        for match, our_match in zip(week["matches"], ours["matches"], strict=True):
            for game, our_game in zip(match["games"], our_match["games"], strict=True):
                assert [d.get("heels") for d in game["deals"]] == [
                    d.get("heels") for d in our_game["deals"]
                ]
                assert all("starter" not in d and "cards" not in d for d in our_game["deals"])


@pytest.mark.django_db
def test_an_unfinished_game_stays_in_progress(archive):
    game = archive["weeks"][2]["matches"][0]["games"][1]
    game["deals"] = game["deals"][:2]
    season = import_season(archive)
    stored = Game.objects.get(match__week__season=season, match__week__number=3, number=2)
    assert stored.status == GameStatus.IN_PROGRESS and stored.deal_count == 2


@pytest.mark.django_db
def test_a_singles_league_seats_two_players_one_per_team():
    rng = random.Random(4)
    games = []
    for first in (0, 1):
        seats = ["Sam", "Tom"] if first == 0 else ["Tom", "Sam"]
        deals = random_game_deals(rng, "singles-121", 0)
        games.append(
            {"seats": seats, "deals": [archive_deal(d, seats, (seats[0], seats[1])) for d in deals]}
        )
    # the pegging is keyed by team name, and each team is named after its player here
    doc = {
        "format": "pegboard-season",
        "version": 1,
        "league": {"name": "Singles Night", "rules": {**RULES, "variant": "singles-121"}},
        "season": {"name": "Winter", "playoff_teams": 2, "draw_seed": 1},
        "teams": [{"name": "Sam", "players": ["Sam"]}, {"name": "Tom", "players": ["Tom"]}],
        "weeks": [
            {"number": 1, "date": None, "matches": [{"teams": ["Sam", "Tom"], "games": games}]}
        ],
    }
    season = import_season(doc)
    assert Game.objects.filter(match__week__season=season, status="confirmed").count() == 2
    second = Game.objects.get(match__week__season=season, number=2)
    assert second.home_side == 1  # Tom (away) sits in seat 0
    exported = export_season(season).archive
    assert exported["weeks"][0]["matches"][0]["games"][1]["seats"] == ["Tom", "Sam"]
    assert exported["league"]["rules"]["variant"] == "singles-121"


# --- refusals: each leaves the database as it was ---------------------------------------------


@pytest.mark.django_db
def test_refuses_another_format(archive):
    archive["format"] = "cribbage-sheet"
    refused(archive, match="not a season archive")


@pytest.mark.django_db
def test_refuses_another_version(archive):
    archive["version"] = 2
    refused(archive, match="version 2")


@pytest.mark.django_db
def test_refuses_an_unknown_team_in_a_match(archive):
    archive["weeks"][1]["matches"][0]["teams"] = ["His Heels", "Double Run"]
    message = refused(archive, match="Unknown team 'Double Run'")
    assert message.startswith("Week 2")


@pytest.mark.django_db
def test_refuses_an_unknown_player_at_a_table(archive):
    archive["weeks"][0]["matches"][0]["games"][1]["seats"][3] = "Zed"
    message = refused(archive, match="Unknown player 'Zed'")
    assert message.startswith("Week 1, Fifteen Two v Nobs, game 2: ")


@pytest.mark.django_db
def test_refuses_a_player_of_a_team_not_in_the_match(archive):
    archive["weeks"][0]["matches"][0]["games"][0]["seats"][1] = "Eve"
    refused(archive, match="Unknown player 'Eve'")


@pytest.mark.django_db
def test_refuses_an_unknown_player_in_a_deal(archive):
    deal = archive["weeks"][0]["matches"][0]["games"][0]["deals"][1]
    deal["shows"]["Zed"] = deal["shows"].pop(next(iter(deal["shows"])))
    refused(archive, match="Week 1, Fifteen Two v Nobs, game 1, deal 2: Unknown player 'Zed'")


@pytest.mark.django_db
def test_refuses_an_unknown_team_in_the_pegging(archive):
    deal = archive["weeks"][0]["matches"][0]["games"][0]["deals"][0]
    deal["pegging"]["Muggins"] = deal["pegging"].pop("Nobs")
    refused(archive, match="deal 1: The pegging has an unknown field 'Muggins'")


@pytest.mark.django_db
def test_refuses_a_team_with_the_wrong_number_of_players(archive):
    archive["teams"][1]["players"].append("Gus")
    refused(archive, match="Team Nobs: A team in this league has 2 different players.")


@pytest.mark.django_db
def test_refuses_a_team_of_one_in_doubles(archive):
    archive["teams"][2]["players"] = ["Eve"]
    refused(archive, match="Team His Heels: ")


@pytest.mark.django_db
def test_refuses_a_season_name_the_league_already_has(archive):
    import_season(copy.deepcopy(archive))
    refused(archive, match="Sunday Pairs already has a season called Fall 2026")


@pytest.mark.django_db
def test_a_season_keeps_its_own_rules_when_the_league_plays_others_now(archive):
    league = League.objects.create(name="Sunday Pairs", **{**RULES, "skunk_margin": 30})
    season = import_season(archive)
    league.refresh_from_db()
    assert season.league == league
    assert season.skunk_margin == 31  # the archive's, as the season was played
    assert league.skunk_margin == 30  # the league's defaults are left alone


@pytest.mark.django_db
def test_two_seasons_of_one_league_with_different_skunk_margins_round_trip(archive):
    first = import_season(archive)
    second_doc = make_archive(seed=9)
    second_doc["season"]["name"] = "Spring 2027"
    second_doc["league"]["rules"]["skunk_margin"] = 25
    second = import_season(second_doc)
    assert (first.skunk_margin, second.skunk_margin) == (31, 25)
    exported = [export_season(s).archive for s in (first, second)]
    assert [doc["league"]["rules"]["skunk_margin"] for doc in exported] == [31, 25]
    before = [game_summary(s) for s in (first, second)]
    wipe_league_data()
    again = [import_season(doc) for doc in exported]
    assert [game_summary(s) for s in again] == before
    assert [export_season(s).archive for s in again] == exported


@pytest.mark.django_db
def test_refuses_an_unknown_variant(archive):
    archive["league"]["rules"]["variant"] = "six-handed-121"
    refused(archive, match="Unknown game 'six-handed-121'")


@pytest.mark.django_db
def test_refuses_an_impossible_show_naming_week_match_game_and_deal(archive):
    game = archive["weeks"][1]["matches"][0]["games"][0]
    number = min(7, len(game["deals"]) - 1)
    deal = game["deals"][number - 1]
    deal["shows"][next(iter(deal["shows"]))] = 19
    message = refused(archive)
    assert message == f"Week 2, His Heels v Fifteen Two, game 1, deal {number}: " + (
        "A hand can never score 19."
    )


@pytest.mark.django_db
def test_refuses_a_show_above_what_its_cards_make(archive):
    game = archive["weeks"][0]["matches"][0]["games"][0]
    for number, deal in enumerate(game["deals"][:-1], start=1):
        for name, points in deal["shows"].items():
            if points + 1 not in (19, 25, 26, 27) and points < 28:
                actual = score_show(parse_cards(deal["cards"][name]), deal["starter"]).total
                assert actual == points
                deal["shows"][name] = points + 1
                message = refused(archive, match="can't be claimed")
                assert message.startswith(f"Week 1, Fifteen Two v Nobs, game 1, deal {number}: ")
                assert name in message  # seats are named by their players
                return
    pytest.fail("no show to over-claim")


@pytest.mark.django_db
def test_refuses_a_deal_after_the_game_was_over(archive):
    game = archive["weeks"][0]["matches"][0]["games"][0]
    game["deals"].append(copy.deepcopy(game["deals"][0]))
    n = len(game["deals"])
    refused(archive, match=f"game 1, deal {n}: The game was over after deal {n - 1}")


@pytest.mark.django_db
def test_refuses_a_deal_out_of_turn(archive):
    game = archive["weeks"][0]["matches"][0]["games"][0]
    game["deals"][1]["dealer"] = game["deals"][0]["dealer"]
    refused(archive, match="game 1, deal 2: The deal passes clockwise")


@pytest.mark.django_db
def test_refuses_a_final_score_the_deals_do_not_give(archive):
    import_season(copy.deepcopy(archive))
    season = Season.objects.get(league__name="Sunday Pairs")
    exported = export_season(season).archive
    wipe_league_data()
    final = exported["weeks"][2]["matches"][0]["games"][1]["final"]
    loser = min(final, key=final.get)
    final[loser] += 1
    refused(exported, match=f"Week 3, Nobs v His Heels, game 2: The final score says {loser}")


@pytest.mark.django_db
def test_refuses_standings_the_games_do_not_give(archive):
    import_season(copy.deepcopy(archive))
    exported = export_season(Season.objects.get(league__name="Sunday Pairs")).archive
    wipe_league_data()
    row = exported["standings"][0]
    row["points"] += 1
    refused(exported, match=f"Standings: {row['team']} has points {row['points']}")


@pytest.mark.django_db
def test_refuses_a_seeding_the_games_do_not_give(archive):
    import_season(copy.deepcopy(archive))
    exported = export_season(Season.objects.get(league__name="Sunday Pairs")).archive
    wipe_league_data()
    exported["seeding"].reverse()
    refused(exported, match="Seeding: The archive seeds")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "spoil",
    [
        lambda a: a["weeks"][0]["matches"][0]["games"][0]["deals"][0].update(dealer=["Ann"]),
        lambda a: a["weeks"][0]["matches"][0].update(teams=[["Nobs"], "Fifteen Two"]),
        lambda a: a["league"]["rules"].update(variant=["partnership-121"]),
        lambda a: a["weeks"][0]["matches"][0]["games"][0]["deals"][0].update(pegging=[3, 4]),
        lambda a: a["weeks"][0]["matches"][0]["games"][0]["deals"][0].update(crib="5"),
        lambda a: a["weeks"][0].update(date="3 September"),
        lambda a: a.update(teams={"Nobs": ["Cat", "Dan"]}),
        lambda a: a["league"]["rules"].update(tiebreaks=["coin toss"]),
        lambda a: a["weeks"][1].update(number=1),
    ],
)
def test_refuses_malformed_values_with_a_message(archive, spoil):
    spoil(archive)
    refused(archive)


@pytest.mark.django_db
def test_refuses_a_misspelt_field(archive):
    deal = archive["weeks"][0]["matches"][0]["games"][0]["deals"][0]
    deal["crb"] = deal.pop("crib")
    refused(archive, match="unknown field 'crb'")


# --- export and the round trip -----------------------------------------------------------------


@pytest.fixture
def played_season(season, match, home_team, away_team, other_team, ann, cat, eve):
    """Week 1 (Fifteen Two v Nobs) played and confirmed, a pending game in week 2, and a game
    half played in week 3."""
    from tests import factories

    rng = random.Random(11)
    for number in (1, 2, 3):
        play_game(match, number, rng, entering=ann, confirming=cat)
    week2 = factories.WeekFactory(season=season, number=2)
    m2 = factories.MatchFactory(week=week2, home=other_team, away=home_team)
    play_game(m2, 1, rng, entering=eve, confirming=ann)
    play_game(m2, 2, rng, entering=eve, confirming=None)  # finished, not yet confirmed
    week3 = factories.WeekFactory(season=season, number=3)
    m3 = factories.MatchFactory(week=week3, home=away_team, away=other_team)
    play_game(m3, 1, rng, entering=cat, confirming=None, stop_after=2)
    factories.MatchFactory(
        week=factories.WeekFactory(season=season, number=4), home=home_team, away=other_team
    )  # scheduled, not played
    return season


@pytest.mark.django_db
def test_export_follows_the_format(played_season):
    result = export_season(played_season)
    doc = result.archive
    assert list(doc) == [
        "format",
        "version",
        "league",
        "season",
        "teams",
        "weeks",
        "standings",
        "seeding",
    ]
    assert doc["format"] == "pegboard-season" and doc["version"] == 1
    assert doc["league"]["rules"]["skunk_margin"] == 30
    assert doc["season"] == {
        "name": "Fall 2026",
        "playoff_teams": 4,
        "draw_seed": 2026,
        "state": "running",
    }
    assert doc["teams"][0] == {"name": "Fifteen Two", "players": ["Ann", "Bob"]}
    game = doc["weeks"][0]["matches"][0]["games"][0]
    assert doc["weeks"][0]["matches"][0]["teams"] == ["Fifteen Two", "Nobs"]
    assert game["seats"] == ["Ann", "Cat", "Bob", "Dan"]
    assert set(game["final"]) == {"Fifteen Two", "Nobs"} and max(game["final"].values()) >= 121
    deal = game["deals"][0]
    assert set(deal["pegging"]) == {"Fifteen Two", "Nobs"}
    assert set(deal["shows"]) <= {"Ann", "Bob", "Cat", "Dan"}
    assert set(deal["cards"]) == {"Ann", "Bob", "Cat", "Dan", "crib"}
    # the shows in counting order: the dealer's left first, the dealer last
    seats = game["seats"]
    d = seats.index(deal["dealer"])
    assert list(deal["shows"]) == [seats[(d + i) % 4] for i in range(1, 5)][: len(deal["shows"])]
    assert doc["weeks"][3]["matches"][0]["games"] == []
    assert [row["team"] for row in doc["standings"]] and len(doc["seeding"]) == 3
    assert set(doc["standings"][0]) == {
        "rank",
        "team",
        "played",
        "won",
        "lost",
        "points",
        "weeks_won",
        "skunks",
        "spread",
    }
    assert result.unconfirmed == ["Week 2, His Heels v Fifteen Two, game 2"]
    json.dumps(doc)  # JSON-ready


@pytest.mark.django_db
def test_round_trip_gives_back_the_same_games_outcomes_standings_and_seeding(played_season):
    # confirm the pending game, so the source's own standings are the archive's
    pending = Game.objects.get(status=GameStatus.FINISHED)
    game_confirm(game=pending, user=Team.objects.get(name="Fifteen Two").captain.user)
    before_games = game_summary(played_season)
    before_standings = standings_rows(compute_standings(played_season))
    before_seeding = compute_standings(played_season)["seeding"]
    text = json.dumps(export_season(played_season).archive)

    wipe_league_data()
    assert row_counts()["Game"] == 0
    season = import_season(json.loads(text))

    assert game_summary(season) == before_games
    assert standings_rows(compute_standings(season)) == before_standings
    assert compute_standings(season)["seeding"] == before_seeding
    again = export_season(season).archive
    assert again == json.loads(text)


@pytest.mark.django_db
def test_pending_games_are_exported_as_played_and_restored_confirmed(played_season):
    result = export_season(played_season)
    source = standings_rows(compute_standings(played_season))
    # the archive's standings count the game still waiting for confirmation
    assert (
        sum(r["played"] for r in result.archive["standings"])
        == sum(r["played"] for r in source) + 2
    )
    # ... and exporting changed nothing
    assert Game.objects.filter(status=GameStatus.FINISHED).count() == 1
    wipe_league_data()
    season = import_season(result.archive)  # its standings check passes
    assert Game.objects.filter(match__week__season=season, status="finished").count() == 0
    assert Game.objects.filter(match__week__season=season, status="in_progress").count() == 1


# --- the commands -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_import_command_reads_a_file(tmp_path: Path, archive, capsys):
    path = tmp_path / "season.json"
    path.write_text(json.dumps(archive))
    call_command("import_season", str(path))
    assert "Imported Sunday Pairs: Fall 2026 (3 teams, 3 weeks, 6 games)" in capsys.readouterr().out
    assert Season.objects.filter(name="Fall 2026", league__name="Sunday Pairs").exists()


@pytest.mark.django_db
def test_import_command_refuses_with_the_place_and_stores_nothing(tmp_path: Path, archive):
    game = archive["weeks"][1]["matches"][0]["games"][0]
    game["deals"][0]["crib"] = 19
    path = tmp_path / "season.json"
    path.write_text(json.dumps(archive))
    before = row_counts()
    with pytest.raises(CommandError) as info:
        call_command("import_season", str(path))
    assert "Week 2, His Heels v Fifteen Two, game 1, deal 1: A crib can never score 19." in str(
        info.value
    )
    assert row_counts() == before


@pytest.mark.django_db
def test_import_command_refuses_a_file_that_is_not_json(tmp_path: Path):
    path = tmp_path / "season.json"
    path.write_text("{not json")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("import_season", str(path))
    with pytest.raises(CommandError, match="Can't read"):
        call_command("import_season", str(tmp_path / "missing.json"))


@pytest.mark.django_db
def test_export_command_writes_the_archive_to_stdout(played_season, capsys):
    call_command("export_season", "Fall 2026")
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert doc["season"]["name"] == "Fall 2026" and doc["format"] == "pegboard-season"
    assert "not confirmed yet" in captured.err


@pytest.mark.django_db
def test_export_command_refuses_an_unknown_season(db):
    with pytest.raises(CommandError, match="No season called 'Spring 1999'"):
        call_command("export_season", "Spring 1999")


@pytest.mark.django_db
def test_a_disputed_game_is_archived_as_played_and_named_and_restores_confirmed(played_season):
    """A backup taken while a judge has a game: the format has no disputes, so the archive holds
    the game as played (like one waiting for a team), the export names it, and its standings are
    what the import gives back. Before, the import refused it: the archive's standings left the
    game out while the restored game counted."""
    from league.services.disputes import dispute_raise

    pending = Game.objects.get(status=GameStatus.FINISHED)
    dispute_raise(
        game=pending,
        user=Team.objects.get(name="Fifteen Two").captain.user,
        claim="Deal 1: our crib was 6",
        deal_number=1,
    )
    result = export_season(played_season)
    assert result.unconfirmed == ["Week 2, His Heels v Fifteen Two, game 2 (disputed)"]
    assert Game.objects.get(pk=pending.pk).status == GameStatus.DISPUTED  # export changes nothing
    text = json.dumps(result.archive)

    wipe_league_data()
    season = import_season(json.loads(text))
    restored = Game.objects.get(match__week__season=season, match__week__number=2, number=2)
    assert restored.status == GameStatus.CONFIRMED
    assert standings_rows(compute_standings(season)) == result.archive["standings"]
    assert compute_standings(season)["seeding"] == result.archive["seeding"]


# Season fields that are not settings an archive carries: who and what the season is, its life
# (state and finished_reason are carried as its state), what the standings and playoffs
# computed from its games, stamps, and the rules the format has no word for (RULE_FIELDS).
NOT_CARRIED = {
    "id",
    "league",
    "finished_at",
    "playoff_seeding",
    "playoff_slots",
    "week_story_since",
    "standings_stale",
    "results_version",
    "importing",
    "playoff_games_per_match",
    "requires_confirmation",
    "irregularities",
    "publish_rulings",
}


@pytest.mark.django_db
def test_every_season_setting_survives_export_then_import(played_season):
    """Each setting an organiser may change, changed from its default, comes back from the
    archive: a setting added to the season but not to the archive fails here."""
    from league.services.archive import RULE_FIELDS
    from league.services.season_ops import OPS_FIELDS

    carried = {"name", "playoff_teams", "draw_seed", "state", "finished_reason"}
    fields = {f.name for f in Season._meta.concrete_fields}
    unlisted = fields - set(OPS_FIELDS) - set(RULE_FIELDS) - carried - NOT_CARRIED
    assert not unlisted, f"the season archive does not say what it does with {sorted(unlisted)}"

    changed = {}
    for name in OPS_FIELDS:
        field = Season._meta.get_field(name)
        default = field.get_default()
        changed[name] = (not default) if isinstance(default, bool) else (default or 0) + 3
    Season.objects.filter(pk=played_season.pk).update(**changed)
    played_season.refresh_from_db()
    doc = export_season(played_season).archive
    doc["season"]["name"] = "Restored"

    restored = import_season(doc)

    lost = {n: getattr(restored, n) for n in OPS_FIELDS if getattr(restored, n) != changed[n]}
    assert not lost, f"lost on the round trip: {lost} (set {changed})"
