"""Fixture chains for tournaments: director -> club night -> checked-in field -> seated round."""

from __future__ import annotations

import pytest

from league.kernel.entries import normalise, to_entry
from league.kernel.permissions import Trusted
from league.models import Player
from scoring.errors import InvalidDealError
from scoring.game import Game as ScoredGame
from scoring.variants import VARIANTS
from tests import factories
from tournaments import services
from tournaments.models import Entrant, PlayoffMatch, TournamentStage


@pytest.fixture
def director(db):
    from django.contrib.auth.models import Group

    from league.kernel.permissions import TOURNAMENT_DIRECTORS

    user = factories.UserFactory(username="dora", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS)[0])
    return user


@pytest.fixture
def night(director):
    """A club night whose disagreements go to the checkers: with ACC Rule 12.2 on (a club
    night's default), every disagreement of round 1 is settled by the rule, since everyone is
    an apparent qualifier before the first result. tests/tournaments/test_acc_crosscheck.py
    turns the rule on."""
    return services.tournament_create(
        user=director,
        name="Crooked Peg Club Night",
        games_per_entrant=3,
        draw_seed=1114,
        acc_rules=False,
    )


NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus"]


@pytest.fixture
def field(night, director):
    """Seven checked-in entrants, each a player with an account (username = name, lowercase)."""
    out = []
    for name in NAMES:
        entrant = services.entrant_register(
            user=director, tournament=night, name=name, check_in=True
        )
        player = Player.objects.get(name=name)
        player.user = factories.UserFactory(username=name.lower())
        player.save()
        out.append(entrant)
    return out


def user_of(entrant: Entrant):
    return entrant.players.get().user


def play_round(night, director, *, winner_first=True, score=100):
    """Seat the next round and verify every table with two matching phone entries."""
    rnd = services.round_seat_next(user=director, tournament=night)
    for game in rnd.games.all():
        w = game.first if winner_first else game.second
        for side in (game.first, game.second):
            services.scorecard_enter(user=user_of(side), game=game, winner=w, loser_score=score)
    return rnd


TRUSTED = Trusted(None, "test")


def finished_night(name, entrants, *, rounds=3, wins=None, season=None, teams=None):
    """A night played to its champion: ``rounds`` qualifying rounds where the entrant named
    first in ``wins`` order beats the later one (by entry order when None), loser at 100;
    then the bracket, each playoff match won 2-0 by the one named first. ``teams`` (entrant
    name -> two player names) makes it a partnership night."""
    order = list(wins or entrants)
    t = services.tournament_create(
        user=TRUSTED,
        name=name,
        games_per_entrant=rounds,
        variant="partnership-121" if teams else "singles-121",
    )
    if season is not None:
        services.night_assign_season(user=TRUSTED, tournament=t, season=season)
    for e in entrants:
        services.entrant_register(
            user=TRUSTED, tournament=t, name=e, players=(teams or {}).get(e, ()), check_in=True
        )
    for _ in range(rounds):
        rnd = services.round_seat_next(user=TRUSTED, tournament=t)
        for g in rnd.games.select_related("first", "second"):
            w = g.first if order.index(g.first.name) < order.index(g.second.name) else g.second
            services.scorecard_settle(user=TRUSTED, game=g, winner=w, loser_score=100)
    services.bracket_draw(user=TRUSTED, tournament=t)
    while True:
        match = t.playoff_matches.filter(winner__isnull=True, top__isnull=False).exclude(
            bottom__isnull=True
        )
        m = match.order_by("round", "position").first()
        if m is None:
            break
        w = m.top if order.index(m.top.name) < order.index(m.bottom.name) else m.bottom
        services.playoff_game_record(user=TRUSTED, match=m, winner=w, loser_score=90)
    t.refresh_from_db()
    assert t.stage == TournamentStage.FINISHED
    return t


VARIANT = VARIANTS["singles-121"]
THE_29 = {
    "dealer": 0,
    "starter": "5S",
    "pegging": [3, 2],
    "shows": {"1": 29, "0": 4},
    "crib": 4,
    "cards": {"1": ["5H", "5D", "5C", "JS"]},
}


def game_with_a_29() -> list[dict]:
    """Seat 1 holds a 29 in the first deal, then wins the game on plain deals."""
    scored = ScoredGame(VARIANT, first_dealer=0, target=121)
    scored.record(to_entry(normalise(THE_29, variant=VARIANT)))
    deals = [THE_29]
    while not scored.finished:
        dealer = len(deals) % 2
        deal = {"dealer": dealer, "pegging": [2, 3], "shows": {"1": 12, "0": 4}, "crib": 4}
        for cut in ("crib", str(dealer), str(1 - dealer)):
            try:
                scored.check(to_entry(normalise(deal, variant=VARIANT)))
                break
            except InvalidDealError:
                if cut == "crib":
                    deal["crib"] = None
                else:
                    deal["shows"].pop(cut)
        scored.record(to_entry(normalise(deal, variant=VARIANT)))
        deals.append(deal)
    return deals


# Double elimination: an event drawn straight into its bracket, its matches by label.


def weekend_playoff(entrants: int, *, best_of: str = "1", reset: bool = True, name="Main"):
    """An event of ``entrants`` (all qualifying: one in one), one qualifying round, then the
    double-elimination bracket drawn. Returns the event and its entrants by seed."""
    t = services.tournament_create(user=TRUSTED, name=name, games_per_entrant=1)
    services.tournament_update(
        user=TRUSTED,
        tournament=t,
        changes={
            "qualify_one_in": 1,
            "bracket_format": "double",
            "grand_final_reset": reset,
            "playoff_best_of_rounds": best_of,
        },
    )
    for i in range(entrants):
        services.entrant_register(user=TRUSTED, tournament=t, name=f"P{i + 1}", check_in=True)
    rnd = services.round_seat_next(user=TRUSTED, tournament=t)
    for g in rnd.games.select_related("first", "second"):
        services.scorecard_settle(user=TRUSTED, game=g, winner=g.first, loser_score=100)
    services.bracket_draw(user=TRUSTED, tournament=t)
    t.refresh_from_db()
    by_seed = {e.seed: e for e in t.entrants.exclude(seed=None)}
    assert sorted(by_seed) == list(range(1, entrants + 1))
    return t, by_seed


def playoff_match(t, label: str) -> PlayoffMatch:
    side = {"W": "winners", "L": "losers", "F": "final"}[label[0]]
    if side == "final":
        rnd, pos = int(label[1:]), 0
    else:
        rnd, pos = (int(x) for x in label[1:].split("-"))
        pos -= 1
    return PlayoffMatch.objects.select_related("top", "bottom", "winner", "tournament").get(
        tournament=t, side=side, round=rnd, position=pos
    )


def win(t, by_seed, label: str, top: int, bottom: int, winner: int, games: int = 1):
    """Check ``label`` is ready between seeds ``top`` and ``bottom``, then ``winner`` takes
    it in ``games`` straight games."""
    m = playoff_match(t, label)
    assert (m.top, m.bottom, m.winner) == (by_seed[top], by_seed[bottom], None), label
    for _ in range(games):
        m, created = services.playoff_game_record(
            user=TRUSTED, match=m, winner=by_seed[winner], loser_score=100
        )
        assert created
    m = playoff_match(t, label)
    assert m.winner == by_seed[winner], label
