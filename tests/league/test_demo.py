"""The demo league and the legal random games it is played with."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from league.kernel.entries import normalise, to_entry
from league.kernel.permissions import CAPTAINS, JUDGES, LEAGUE_ADMINS
from league.models import AuditEntry, Deal, Game, GameStatus, League, Season, Team
from league.selectors.standings import compute_standings
from league.services.archive import export_season, standings_rows
from league.services.archive_import import import_season
from league.services.demo import random_game_deals
from scoring.cards import parse_cards
from scoring.game import Game as ScoredGame
from scoring.show import score_show
from scoring.variants import get_variant
from tests.factories import game_summary, wipe_league_data


def replay(variant: str, deals: list[dict], first_dealer: int) -> ScoredGame:
    v = get_variant(variant)
    scored = ScoredGame(v, first_dealer=first_dealer)
    for data in deals:
        scored.record(to_entry(normalise(data, variant=v)))
    return scored


@pytest.mark.parametrize("variant", ["partnership-121", "singles-121"])
@pytest.mark.parametrize("seed", range(6))
def test_random_games_are_legal_and_stop_at_the_target(variant, seed):
    v = get_variant(variant)
    rng = random.Random(seed)
    first = rng.randrange(v.players)
    deals = random_game_deals(rng, variant, first)
    scored = replay(variant, deals, first)
    assert scored.finished and max(scored.scores) >= 121
    for number, data in enumerate(deals):
        assert data["dealer"] == (first + number) % v.players
        cards = data["cards"]
        assert sorted(cards) == sorted([*map(str, range(v.players)), "crib"])
        every = [c for hand in cards.values() for c in hand] + [data["starter"]]
        assert len(every) == len(set(every)) == v.players * v.hand_size + v.crib_size + 1
        for seat, points in data["shows"].items():  # shows are what the cards make
            assert points == score_show(parse_cards(cards[seat]), data["starter"]).total
        if data["crib"] is not None:
            assert (
                data["crib"]
                == score_show(parse_cards(cards["crib"]), data["starter"], crib=True).total
            )
    # only the last deal may stop short, and it stops where the game ended
    for data in deals[:-1]:
        assert len(data["shows"]) == v.players and data["crib"] is not None
    assert max(scored.deals[-1].scores_before) < 121


def test_random_games_are_deterministic():
    one = random_game_deals(random.Random(5), "partnership-121", 2)
    two = random_game_deals(random.Random(5), "partnership-121", 2)
    assert one == two


@pytest.mark.django_db
def test_seed_demo_builds_the_doubles_league(capsys, settings, tmp_path):
    settings.PEGBOARD_VAPID_FILE = tmp_path / "vapid.json"
    settings.PEGBOARD_VAPID_PRIVATE_KEY = settings.PEGBOARD_VAPID_PUBLIC_KEY = ""
    call_command("seed_demo")
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8000/" in out and "/admin/" in out and "/api/" in out
    # Push works on the demo's own address: it made one VAPID pair; every player has an address
    assert "Web Push key pair" in out and json.loads(settings.PEGBOARD_VAPID_FILE.read_text())
    from league.models import Player

    emails = [
        p.user.email for p in Player.objects.filter(teams__isnull=False).select_related("user")
    ]
    assert emails and all(e.endswith("@example.com") for e in emails)
    assert "ann@example.com" in emails

    league = League.objects.get()
    assert (league.name, league.variant, league.target) == (
        "Thursday Doubles",
        "partnership-121",
        121,
    )
    assert (league.skunk_margin, league.skunk_bonus) == (30, 1)
    assert (league.double_skunk_margin, league.double_skunk_bonus) == (61, 0)
    assert league.games_per_match == 3 and league.requires_confirmation
    assert league.tiebreaks == ["weeks_won", "head_to_head", "spread", "draw"]
    season = Season.objects.get(league=league, name="Fall 2026")
    teams = list(season.teams.all())
    assert len(teams) == 8 and all(t.players.count() == 2 for t in teams)
    assert season.weeks.count() == 7 and season.weeks.filter(venue__isnull=False).count() == 7

    User = get_user_model()
    assert User.objects.get(username="admin").is_superuser
    assert User.objects.filter(groups__name=JUDGES).exists()
    assert User.objects.filter(groups__name=LEAGUE_ADMINS).exists()
    for team in teams:
        assert team.captain.user.groups.filter(name=CAPTAINS).exists()
        assert all(p.user is not None for p in team.players.all())

    games = Game.objects.filter(match__week__season=season).select_related("match")
    disputed = [g for g in games if g.status == GameStatus.DISPUTED]
    finished = [g for g in games if g.winner_id and g.status != GameStatus.DISPUTED]
    assert len(finished) >= 4 * 4 * 3
    assert all(g.status == GameStatus.CONFIRMED for g in finished)
    # one game of the current week waits for a judge, so the judges' queue has work
    assert [(g.match.week.number, g.match.table, g.number) for g in disputed] == [(5, 2, 1)]
    open_dispute = disputed[0].disputes.get()
    assert open_dispute.deal_number == 2 and open_dispute.judge is None
    # each game confirmed by a player of the other team than the one that entered it
    for game in finished:
        entered = {d.entered_by.player.teams.get(season=season).pk for d in game.deals.all()}
        confirmer = game.confirmed_by.player.teams.get(season=season).pk
        assert len(entered) == 1 and confirmer not in entered
        assert {game.match.home_id, game.match.away_id} >= entered | {confirmer}
    # every game is legal: the scorer replays it and reaches the stored scores
    for game in games:
        deals = list(game.deals.filter(is_current=True).order_by("number"))
        assert all(d.cards for d in deals)
        normals = [
            {
                "dealer": d.dealer,
                "starter": d.starter,
                "pegging": d.pegging,
                "shows": d.shows,
                "crib": d.crib,
                "cards": d.cards,
            }
            for d in deals
        ]
        scored = replay("partnership-121", normals, game.first_dealer)
        assert scored.scores[game.home_side] == game.home_score
        assert scored.finished == (game.winner_id is not None)
    # the current week is part played: a captain has games left to enter
    current = season.weeks.get(number=5)
    # ... and it is this week by the calendar, so the pages and the TV open on it
    from django.utils import timezone

    from league.selectors.scoreboard import current_week

    assert current_week(season, today=timezone.localdate()) == current
    assert Game.objects.filter(match__week=current, status=GameStatus.IN_PROGRESS).exists()
    assert current.matches.filter(games__isnull=True).exists()
    assert not Game.objects.filter(match__week__number__gt=5, match__week__season=season).exists()

    data = compute_standings(season)
    ranks = [row["rank"] for row in data["standings"]]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    assert len(data["seeding"]) == 8
    assert sum(row["played"] for row in data["standings"]) == 2 * len(finished)
    assert sum(row["won"] for row in data["standings"]) == len(finished)

    # --if-empty leaves a seeded database alone
    counts = (League.objects.count(), Game.objects.count(), Deal.objects.count())
    call_command("seed_demo", "--if-empty")
    assert (League.objects.count(), Game.objects.count(), Deal.objects.count()) == counts

    # and the demo season survives a round trip through its archive, which holds the disputed
    # game as played (the format has no disputes) and says so
    before = game_summary(season)
    export = export_season(season)
    assert export.unconfirmed == ["Week 5, Muggins v His Heels, game 1 (disputed)"]
    text = json.dumps(export.archive)
    wipe_league_data()
    AuditEntry.objects.all().delete()
    restored = import_season(json.loads(text))
    after = game_summary(restored)
    assert len(after) == len(before)
    for was, now in zip(before, after, strict=True):
        if was[6] == GameStatus.DISPUTED:  # game_summary's status
            assert now[6] == GameStatus.CONFIRMED and now[:6] + now[7:] == was[:6] + was[7:]
        else:
            assert now == was
    assert standings_rows(compute_standings(restored)) == export.archive["standings"]
    assert compute_standings(restored)["seeding"] == export.archive["seeding"]


@pytest.mark.django_db
def test_seed_demo_if_empty_does_nothing_when_a_league_exists(capsys):
    League.objects.create(name="Someone's league")
    call_command("seed_demo", "--if-empty")
    assert Team.objects.count() == 0 and Season.objects.count() == 0
    out = capsys.readouterr().out
    assert "nothing to seed" in out.lower()
    assert "Open http://127.0.0.1:8000/" in out  # where the demo is, even when nothing is seeded


@pytest.mark.django_db
def test_seed_demo_prints_the_address_the_demo_is_served_at(capsys):
    League.objects.create(name="Someone's league")
    call_command("seed_demo", "--if-empty", "--url", "http://127.0.0.1:8101")
    assert "Open http://127.0.0.1:8101/  (admin panel: http://127.0.0.1:8101/admin/" in (
        capsys.readouterr().out
    )


@pytest.mark.parametrize(
    ("today", "first"),
    [
        ("2026-12-03", "2026-11-05"),  # a Thursday: tonight is the part-played week
        ("2026-12-07", "2026-11-05"),  # the Monday after: still that week
        ("2026-12-09", "2026-11-05"),  # the Wednesday after
        ("2026-12-10", "2026-11-12"),  # the next Thursday moves it on
    ],
)
def test_the_demo_is_dated_so_its_part_played_week_is_this_week(today, first):
    import datetime as dt

    from league.services.demo import demo_start_date

    start = demo_start_date(dt.date.fromisoformat(today), 4)
    assert start == dt.date.fromisoformat(first) and start.weekday() == 3
