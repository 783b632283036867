"""The one factory module: model rows with sensible defaults, and whole games played through the
services (results never go in any other way). Every test package shares these."""

from __future__ import annotations

import datetime as dt
import json
import random
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.db import connection

from league import models
from league.kernel.entries import normalise, to_entry
from league.models import (
    AuditEntry,
    Deal,
    Game,
    GameSeat,
    GameStatus,
    League,
    Match,
    Player,
    Season,
    StandingsSnapshot,
    Team,
    Venue,
    Week,
)
from league.services.deals import deal_record
from league.services.demo import random_game_deals
from league.services.games import game_confirm, game_start
from scoring.cards import DECK
from scoring.errors import InvalidDealError
from scoring.game import Game as ScoredGame
from scoring.show import score_show
from scoring.variants import VARIANTS


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pass-word-123")


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.League

    name = factory.Sequence(lambda n: f"League {n}")
    variant = "partnership-121"
    target = 121
    games_per_match = 3
    skunk_margin = 30
    requires_confirmation = True


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Season

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Season {n}")
    playoff_teams = 4
    draw_seed = 2026
    state = models.SeasonState.PUBLISHED  # a season the pages show (a draft: state="draft")

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        """A season starts from its league's rules (``rules`` names the ones that differ)."""
        from league.models.rules import RULE_FIELDS

        league = kwargs["league"]
        for name in RULE_FIELDS:
            kwargs.setdefault(name, getattr(league, name))
        return super()._create(model_class, *args, **kwargs)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Player

    name = factory.Sequence(lambda n: f"Player {n}")
    user = factory.SubFactory(
        UserFactory,
        username=factory.LazyAttribute(lambda o: o.factory_parent.name.lower().replace(" ", "")),
    )


class TeamFactory(factory.django.DjangoModelFactory):
    """A team of two players with accounts; the first is captain."""

    class Meta:
        model = models.Team
        skip_postgeneration_save = True

    season = factory.SubFactory(SeasonFactory)
    name = factory.Sequence(lambda n: f"Team {n}")
    captain = factory.SubFactory(PlayerFactory)

    @factory.post_generation
    def players(
        self, create: bool, extracted: list[models.Player] | None, **kwargs: object
    ) -> None:
        if not create:
            return
        if extracted:
            self.players.set(extracted)
        else:
            self.players.set([self.captain, PlayerFactory()])


class WeekFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Week

    season = factory.SubFactory(SeasonFactory)
    number = factory.Sequence(lambda n: n + 1)
    date = factory.LazyFunction(lambda: dt.date(2026, 9, 3))


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Match

    week = factory.SubFactory(WeekFactory)
    home = factory.SubFactory(TeamFactory, season=factory.SelfAttribute("..week.season"))
    away = factory.SubFactory(TeamFactory, season=factory.SelfAttribute("..week.season"))
    table = 1


def confirmed_game(match, number, winner, margin, skunk=0):
    """A confirmed game with its outcome stored, for standings tests that need no deals."""
    season = match.week.season
    home_won = winner == match.home
    return models.Game.objects.create(
        match=match,
        number=number,
        status=models.GameStatus.CONFIRMED,
        winner=winner,
        margin=margin,
        skunk_level=skunk,
        home_score=121 if home_won else 121 - margin,
        away_score=121 - margin if home_won else 121,
        home_points=season.league_points(won=home_won, skunk_level=skunk),
        away_points=season.league_points(won=not home_won, skunk_level=skunk),
        confirmed_at="2026-09-03T20:00:00Z",
    )


# --- Games played through the services ------------------------------------------------------------
# Whole legal games for tests at every door: plain numbers (no cards), real cards from a seeded
# deck (counted by the scorer), season archives of such games, and many phones at once.


def plain_deal(dealer: int, *, pegging=(3, 2), show=8, crib=4) -> dict:
    return {
        "dealer": dealer,
        "starter": None,
        "pegging": list(pegging),
        "shows": {str(s): show for s in range(4)},
        "crib": crib,
    }


def play_until_over(game, user, *, show=8) -> int:
    """Enter plain deals until the game ends; the last deal stops where the game did."""
    from scoring.game import DealEntry
    from scoring.game import Game as Scored
    from scoring.variants import get_variant

    scored = Scored(get_variant("partnership-121"), first_dealer=game.first_dealer, target=121)
    number = 0
    while True:
        number += 1
        dealer = (game.first_dealer + number - 1) % 4
        data = plain_deal(dealer, show=show)
        # trim to what was counted before a side reached 121
        order = [(dealer + i) % 4 for i in range(1, 5)]
        scores = list(scored.scores)
        for side, pts in enumerate(data["pegging"]):
            scores[side] += pts
        shows = {}
        over = max(scores) >= 121
        for seat in order:
            if over:
                break
            shows[str(seat)] = show
            scores[seat % 2] += show
            over = max(scores) >= 121
        data["shows"] = shows
        if over:
            data["crib"] = None
        deal_record(game=game, user=user, number=number, data=data, key=str(uuid.uuid4()))
        scored.record(
            DealEntry(
                dealer,
                pegging=tuple(data["pegging"]),
                shows={int(k): v for k, v in shows.items()},
                crib=data["crib"],
            )
        )
        if over:
            return number


def losers_pegging_struck_out(game) -> tuple[int, dict]:
    """The last deal of a finished game with the losing side's pegging corrected to 0."""
    game.refresh_from_db()
    last = Deal.objects.get(game=game, number=game.deal_count, is_current=True)
    data = {
        "dealer": last.dealer,
        "starter": last.starter or None,
        "pegging": list(last.pegging),
        "shows": dict(last.shows),
        "crib": last.crib,
    }
    loser_side = 1 - game.side_for_team(game.winner)
    data["pegging"][loser_side] = 0
    return last.number, data


def game_deals(game, *, seed: int = 7) -> list[dict]:
    """A whole legal game for ``game``'s seats and first dealer (the same for the same seed)."""
    season = game.match.week.season
    return random_game_deals(random.Random(seed), season.variant, game.first_dealer, season.target)


def singles_game(*, strong_seat: int = 0) -> list[dict]:
    """A whole singles game to 121 as plain deals (no cards), the last one cut where the game
    ends, as the table would write it."""
    variant = VARIANTS["singles-121"]
    scored = ScoredGame(variant, first_dealer=0, target=121)
    deals: list[dict] = []
    while not scored.finished:
        dealer = len(deals) % 2
        shows = {str(strong_seat): 12, str(1 - strong_seat): 4}
        deal = {"dealer": dealer, "pegging": [3, 2], "shows": dict(shows), "crib": 4}
        for cut in ("crib", str(dealer), str(1 - dealer)):
            try:
                scored.check(to_entry(normalise(deal, variant=variant)))
                break
            except InvalidDealError:
                if cut == "crib":
                    deal["crib"] = None
                else:
                    deal["shows"].pop(cut)
        scored.record(to_entry(normalise(deal, variant=variant)))
        deals.append(deal)
    return deals


def play(
    game, user, *, seed: int = 7, deals: int | None = None, start: int = 1, cards: bool = False
):
    """Enter deals ``start``..``deals`` (to the end, by default) of a legal game (the service)."""
    data = game_deals(game, seed=seed)
    for number, deal in enumerate(data[start - 1 : deals], start=start):
        if not cards:
            deal = {k: v for k, v in deal.items() if k != "cards"}
        deal_record(game=game, user=user, number=number, data=deal)
    game.refresh_from_db()
    return game


def play_game(match, number, rng, *, entering, confirming, stop_after=None) -> Game:
    """Game ``number`` of ``match`` played with the scorer, entered and confirmed by users."""
    home = list(match.home.players.order_by("name"))
    away = list(match.away.players.order_by("name"))
    seats = [home[0], away[0], home[1], away[1]]
    first = rng.randrange(4)
    game = game_start(match=match, user=entering, seats=seats, first_dealer=first)
    deals = random_game_deals(rng, "partnership-121", first)
    for n, data in enumerate(deals[:stop_after], start=1):
        deal_record(game=game, user=entering, number=n, data=data)
    game.refresh_from_db()
    if game.status == GameStatus.FINISHED and confirming is not None:
        game = game_confirm(game=game, user=confirming)
    return game


# --- API bodies of whole games (real cards, shows counted by the scorer) -----------------------

PLAYERS = 4
SIDES = 2
TARGET = 121


def first_deal(**changes: Any) -> dict[str, Any]:
    """A legal first deal, as the API takes it, of a game where seat 0 deals first (a fresh
    idempotency key each call); ``changes`` replace fields."""
    body = {
        "key": str(uuid.uuid4()),
        "number": 1,
        "dealer": 0,
        "starter": "5H",
        "pegging": [2, 3],
        "shows": {"1": 6, "2": 8, "3": 4, "0": 12},
        "crib": 5,
    }
    body.update(changes)
    return body


@dataclass
class DealtGame:
    """The request bodies of a whole game, and the scores they should give after each deal."""

    deals: list[dict[str, Any]] = field(default_factory=list)
    scores_after: list[tuple[int, int]] = field(default_factory=list)

    @property
    def final(self) -> tuple[int, int]:
        return self.scores_after[-1]

    @property
    def winner(self) -> int:
        return 0 if self.final[0] >= TARGET else 1


def deal_game(
    *,
    seed: int,
    first_dealer: int = 0,
    pegging: tuple[tuple[int, int], tuple[int, int]] = ((0, 5), (0, 5)),
    with_cards_every: int = 3,
) -> DealtGame:
    """A whole game of partnership cribbage to 121, as API bodies.

    ``pegging`` gives each side's (low, high) pegging per deal, to make lopsided games;
    every ``with_cards_every``-th deal also sends the cards so the scorer checks the claims.
    """
    rng = random.Random(seed)
    game = DealtGame()
    scores = [0, 0]
    number = 0
    while max(scores) < TARGET:
        number += 1
        dealer = (first_dealer + number - 1) % PLAYERS
        dealer_side = dealer % SIDES
        deck = list(DECK)
        rng.shuffle(deck)
        hands: dict[int, list] = {}
        crib: list = []
        for seat in range(PLAYERS):
            dealt = deck[seat * 5 : seat * 5 + 5]
            crib.append(dealt.pop(rng.randrange(5)))
            hands[seat] = dealt
        starter = deck[PLAYERS * 5]

        body: dict[str, Any] = {
            "key": str(uuid.UUID(int=rng.getrandbits(128))),
            "number": number,
            "dealer": dealer,
            "starter": str(starter),
            "pegging": [0, 0],
            "shows": {},
            "crib": None,
        }
        if with_cards_every and number % with_cards_every == 0:
            body["cards"] = {str(s): [str(c) for c in h] for s, h in hands.items()}
            body["cards"]["crib"] = [str(c) for c in crib]

        def peg(side: int, points: int) -> bool:
            scores[side] += points
            return scores[side] >= TARGET

        over = False
        if starter.rank == 11:  # his heels: two to the dealer's side
            over = peg(dealer_side, 2)
        if not over:
            pegged = [rng.randint(*pegging[side]) for side in range(SIDES)]
            # only one side can reach the target in the play: the other stops short of it
            if scores[0] + pegged[0] >= TARGET:
                pegged[1] = min(pegged[1], TARGET - 1 - scores[1])
            body["pegging"] = pegged
            for side in range(SIDES):
                over = peg(side, pegged[side]) or over
        for i in range(1, PLAYERS + 1):
            seat = (dealer + i) % PLAYERS
            if over:
                break
            points = score_show(hands[seat], starter).total
            body["shows"][str(seat)] = points
            over = peg(seat % SIDES, points)
        if not over:
            body["crib"] = score_show(crib, starter, crib=True).total
            peg(dealer_side, body["crib"])
        game.deals.append(body)
        game.scores_after.append((scores[0], scores[1]))
    return game


# --- Season archives ------------------------------------------------------------------------------

RULES = {
    "variant": "partnership-121",
    "target": 121,
    "games_per_match": 3,
    "points_per_win": 1,
    "skunk_margin": 31,
    "skunk_bonus": 1,
    "double_skunk_margin": 61,
    "double_skunk_bonus": 1,
    "tiebreaks": ["weeks_won", "head_to_head", "spread", "draw"],
}
TEAMS = [
    ("Fifteen Two", ["Ann", "Bob"]),
    ("Nobs", ["Cat", "Dan"]),
    ("His Heels", ["Eve", "Fay"]),
]
# Three teams, one match a week (one team has the bye), two games a match.
SCHEDULE = [("Fifteen Two", "Nobs"), ("His Heels", "Fifteen Two"), ("Nobs", "His Heels")]


# --- helpers ------------------------------------------------------------------------------------


def archive_deal(data: dict[str, Any], seats: list[str], teams: tuple[str, str]) -> dict:
    """A seat-shaped deal (services) written the archive's way: names instead of seats."""
    out: dict[str, Any] = {"dealer": seats[data["dealer"]], "starter": data["starter"]}
    out["pegging"] = {teams[side]: pts for side, pts in enumerate(data["pegging"])}
    out["shows"] = {seats[int(seat)]: pts for seat, pts in data["shows"].items()}
    if data["crib"] is not None:
        out["crib"] = data["crib"]
    out["cards"] = {
        ("crib" if who == "crib" else seats[int(who)]): hand for who, hand in data["cards"].items()
    }
    return out


def make_archive(seed: int = 7, *, league: str = "Sunday Pairs", games: int = 2) -> dict:
    """A small, valid archive of legal random games (no final, standings or seeding)."""
    rng = random.Random(seed)
    players = dict(TEAMS)
    weeks = []
    for number, (home, away) in enumerate(SCHEDULE, start=1):
        game_rows = []
        for g in range(games):
            h, a = players[home], players[away]
            if g % 2:
                h = list(reversed(h))
            seats = [h[0], a[0], h[1], a[1]]
            first = rng.randrange(4)
            deals = random_game_deals(rng, "partnership-121", first)
            game_rows.append(
                {"seats": seats, "deals": [archive_deal(d, seats, (home, away)) for d in deals]}
            )
        weeks.append(
            {
                "number": number,
                "date": f"2026-09-{3 + 7 * (number - 1):02d}",
                "matches": [{"teams": [home, away], "games": game_rows}],
            }
        )
    return {
        "format": "pegboard-season",
        "version": 1,
        "league": {"name": league, "rules": dict(RULES)},
        "season": {"name": "Fall 2026", "playoff_teams": 2, "draw_seed": 2026},
        "teams": [{"name": name, "players": list(p)} for name, p in TEAMS],
        "weeks": weeks,
    }


def make_big_archive(games: int, *, teams: int = 16, seed: int = 5) -> dict:
    """A valid archive of ``games`` games (``teams`` teams, 5 games a match), cheap to make: a
    handful of legal random games are dealt once and replayed at every table."""
    from league.services.seasons import round_robin

    rng = random.Random(seed)
    pool = [(first, random_game_deals(rng, "partnership-121", first)) for first in (0, 1, 2, 3)]
    names = [(f"Team {i:02d}", [f"Player {i:02d}a", f"Player {i:02d}b"]) for i in range(teams)]
    rounds = round_robin(teams)
    weeks: list[dict] = []
    made = 0
    while made < games:
        matches = []
        for h, a in rounds[len(weeks) % len(rounds)]:
            (home, hp), (away, ap) = names[h], names[a]
            rows = []
            for _ in range(min(5, games - made)):
                seats = [hp[0], ap[0], hp[1], ap[1]]
                _first, deals = pool[made % len(pool)]
                rows.append(
                    {"seats": seats, "deals": [archive_deal(d, seats, (home, away)) for d in deals]}
                )
                made += 1
            if rows:
                matches.append({"teams": [home, away], "games": rows})
        weeks.append({"number": len(weeks) + 1, "date": None, "matches": matches})
    return {
        "format": "pegboard-season",
        "version": 1,
        "league": {"name": "Big League", "rules": {**RULES, "games_per_match": 5}},
        "season": {"name": f"Big {games}", "playoff_teams": 4, "draw_seed": 1},
        "teams": [{"name": name, "players": list(p)} for name, p in names],
        "weeks": weeks,
    }


def wipe_league_data() -> None:
    """Empty the league's tables (children first), as a fresh database would be."""
    from tournaments import models as tm

    for model in (
        tm.Scorecard,
        tm.PlayoffGame,
        tm.PlayoffMatch,
        tm.TableGame,
        tm.Bye,
        tm.Round,
        tm.EntrantPlayer,
        tm.LedgerEntry,
        tm.SidePot,
        tm.Purse,
        tm.Entrant,
        tm.Tournament,
        tm.ClubSeason,
        tm.Club,
    ):
        model.objects.all().delete()
    AuditEntry.objects.all().delete()
    models.Dispute.objects.all().delete()
    Deal.objects.all().delete()
    GameSeat.objects.all().delete()
    Game.objects.all().delete()
    models.Forfeit.objects.all().delete()
    models.Postponement.objects.all().delete()
    Match.objects.all().delete()
    Week.objects.all().delete()
    StandingsSnapshot.objects.all().delete()
    models.SeasonSub.objects.all().delete()
    Team.objects.all().delete()
    Season.objects.all().delete()
    League.objects.all().delete()
    Player.objects.all().delete()
    Venue.objects.all().delete()


#: The tables a season archive fills: an import that is refused adds a row to none of them.
ARCHIVE_MODELS = (
    League,
    Season,
    Team,
    Player,
    Week,
    Match,
    Game,
    GameSeat,
    Deal,
    AuditEntry,
    models.SeasonSub,
    models.DealtHand,
)


def row_counts() -> dict[str, int]:
    """How many rows each of ``ARCHIVE_MODELS`` holds, by model name."""
    return {model.__name__: model.objects.count() for model in ARCHIVE_MODELS}


def game_summary(season: Season) -> list[tuple]:
    """Every game with its seats, deals and outcome, by names: what a round trip must keep."""
    out = []
    games = Game.objects.filter(match__week__season=season).order_by(
        "match__week__number", "match__table", "number"
    )
    for game in games.select_related("match__week", "match__home", "match__away", "winner"):
        seats = [s.player.name for s in game.seats.order_by("seat")]
        deals = [
            (
                d.number,
                seats[d.dealer],
                d.starter,
                d.heels,
                tuple(d.pegging),
                tuple(sorted((seats[int(k)], v) for k, v in d.shows.items())),
                d.crib,
                json.dumps(d.cards, sort_keys=True),
                d.home_after,
                d.away_after,
            )
            for d in game.deals.filter(is_current=True).order_by("number")
        ]
        out.append(
            (
                game.match.week.number,
                game.match.home.name,
                game.match.away.name,
                game.number,
                tuple(seats),
                game.first_dealer,
                game.status,
                game.home_score,
                game.away_score,
                game.winner.name if game.winner else None,
                game.margin,
                game.skunk_level,
                game.home_points,
                game.away_points,
                tuple(deals),
            )
        )
    return out


# --- Many phones at once -------------------------------------------------------------------------


def all_at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` in threads released together; each result, or the exception it raised."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = call()
        except Exception as exc:  # reported to the test, which decides
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a request never came back"
    return results
