"""The demo league, and legal random games played with the scorer.

:func:`random_game_deals` plays a whole game of any two-sided variant from shuffled cards: each
deal is dealt, discarded, cut and pegged out card by card with the scorer's pegging state
machine, the hands and the crib are counted with ``show_total``, and the deal stops at the
instant a side reaches the target (only what was counted up to then is kept). Every deal is
checked by the scorer's ``Game`` as it is made, so the result is a game a captain could have
entered. Tests and benchmarks use it too.

:func:`build_demo` builds "Thursday Doubles" (the league sheet in ``shared/seeds``): accounts,
eight teams, a round-robin schedule, four weeks played deal by deal through the services (each
game entered by one team's captain and confirmed by the other team), and a current week left
part played. Seeded, so every run builds the same league.
"""

from __future__ import annotations

import datetime as dt
import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from league.kernel.entries import read_deal
from league.kernel.permissions import CAPTAINS, JUDGES, LEAGUE_ADMINS, PLAYERS
from league.models import Game, GameStatus, League, Player, Season, Team, Venue
from league.services.deals import deal_record
from league.services.disputes import dispute_raise
from league.services.game_start import match_early_start
from league.services.games import game_confirm, game_start
from league.services.rules import season_create
from league.services.season_life import season_publish
from league.services.seasons import schedule_create, team_create
from scoring.cards import DECK, Card
from scoring.game import Game as ScoredGame
from scoring.pegging import Pegging, peg_points
from scoring.show import show_total
from scoring.variants import Variant, get_variant

# --------------------------------------------------------------------------------------------
# Legal random games
# --------------------------------------------------------------------------------------------

STARTER_SAMPLE = 6  # starters tried when a player weighs a discard


def _variant(variant: Variant | str) -> Variant:
    return variant if isinstance(variant, Variant) else get_variant(variant)


def _discard(
    rng: random.Random, cards: list[Card], keep: int, unseen: Sequence[Card]
) -> list[Card]:
    """A plausible discard: keep the cards that show best over a few sampled starters."""
    starters = rng.sample(list(unseen), min(STARTER_SAMPLE, len(unseen)))
    best: tuple[float, float] | None = None
    best_keep: tuple[Card, ...] = tuple(cards[:keep])
    for kept in combinations(cards, keep):
        value = sum(show_total(kept, s) for s in starters)
        rank = (value, rng.random())
        if best is None or rank > best:
            best, best_keep = rank, kept
    return [c for c in cards if c not in best_keep]


def random_deal(
    rng: random.Random,
    variant: Variant | str,
    dealer: int,
    scores: Sequence[int],
    target: int | None = None,
) -> dict[str, Any]:
    """One deal, dealt from a shuffled deck and played out, in the services' data shape.

    ``scores`` are the sides' scores before the deal; the deal keeps only what is counted until
    a side reaches ``target`` (the variant's by default).
    """
    v = _variant(variant)
    target = target or v.target
    deck = list(DECK)
    rng.shuffle(deck)
    order = [(dealer + i) % v.players for i in range(1, v.players + 1)]  # dealer's left first
    dealt: dict[int, list[Card]] = {seat: [] for seat in order}
    for _ in range(v.dealt):
        for seat in order:
            dealt[seat].append(deck.pop())
    crib = [deck.pop() for _ in range(v.crib_from_deck)]
    hands: dict[int, list[Card]] = {}
    for seat in order:
        thrown = _discard(rng, dealt[seat], v.hand_size, deck)
        hands[seat] = [c for c in dealt[seat] if c not in thrown]
        crib.extend(thrown)
    starter = deck.pop(rng.randrange(len(deck)))

    running = list(scores)
    dealer_side = v.side_of(dealer)
    pegging = [0] * v.sides
    shows: dict[str, int] = {}
    crib_points: int | None = None

    def reached(side: int, points: int) -> bool:
        running[side] += points
        return running[side] >= target

    over = starter.rank == 11 and reached(dealer_side, 2)  # two for his heels
    if not over:
        for side, points in play_pegging(rng, v, dealer, hands):
            pegging[side] += points
            if reached(side, points):
                over = True
                break
    if not over:
        for seat in v.show_order(dealer):
            shows[str(seat)] = show_total(hands[seat], starter)
            if reached(v.side_of(seat), shows[str(seat)]):
                over = True
                break
    if not over:
        crib_points = show_total(crib, starter, crib=True)
    cards = {str(seat): [str(c) for c in hands[seat]] for seat in sorted(hands)}
    cards["crib"] = [str(c) for c in crib]
    return {
        "dealer": dealer,
        "starter": str(starter),
        "pegging": pegging,
        "shows": shows,
        "crib": crib_points,
        "cards": cards,
    }


def play_pegging(
    rng: random.Random, v: Variant, dealer: int, hands: dict[int, list[Card]]
) -> list[tuple[int, int]]:
    """The play of a deal with the scorer's pegging state machine: ``(side, points)`` for each
    scoring moment, in order. Each player lays a card that pegs the most now (ties by chance)."""
    play = Pegging(v, [hands[seat] for seat in range(v.players)], dealer=dealer)
    scored: list[tuple[int, int]] = []
    while not play.finished:
        seat = play.to_play
        assert seat is not None
        legal = play.legal_cards()
        if not legal:
            events = play.go(seat)
        else:
            pile = play.pile
            card = max(legal, key=lambda c: (peg_points((*pile, c)), rng.random()))
            events = play.play(seat, card)
        scored.extend((v.side_of(e.seat), e.points) for e in events if e.points)
    return scored


def random_game_deals(
    rng: random.Random,
    variant: Variant | str = "partnership-121",
    first_dealer: int = 0,
    target: int | None = None,
) -> list[dict[str, Any]]:
    """A whole legal game, deal by deal, in the services' data shape (with the cards).

    Each deal is recorded on the scorer's ``Game`` as it is made, so a deal the scorer would
    refuse fails here, loudly. The last deal stops where a side reached the target.
    """
    v = _variant(variant)
    scored = ScoredGame(v, first_dealer=first_dealer, target=target)
    deals: list[dict[str, Any]] = []
    while not scored.finished:
        data = random_deal(rng, v, scored.next_dealer, scored.scores, target)
        scored.record(read_deal(data, variant=v).entry)
        deals.append(data)
    return deals


# --------------------------------------------------------------------------------------------
# The demo league
# --------------------------------------------------------------------------------------------

LEAGUE_NAME = "Thursday Doubles"
SEASON_NAME = "Fall 2026"
SEED = 2026
WEEKS_PLAYED = 4
PASSWORD = "cribbage"  # every player's demo password
ADMIN = ("admin", "admin")
JUDGE = ("judge", "judge")
LEAGUE_ADMIN = ("leagueadmin", "leagueadmin")

TEAMS: list[tuple[str, tuple[str, str]]] = [
    ("Fifteen Two", ("Ann", "Bob")),
    ("His Nobs", ("Cat", "Dan")),
    ("His Heels", ("Eve", "Fay")),
    ("Double Run", ("Gus", "Hal")),
    ("Skunk Works", ("Ivy", "Jay")),
    ("Muggins", ("Kim", "Lou")),
    ("Peg Out", ("May", "Ned")),
    ("Nineteen", ("Oly", "Pat")),
]


@dataclass
class DemoSummary:
    league: League
    season: Season
    games: int = 0
    deals: int = 0
    accounts: list[tuple[str, str, str]] = field(default_factory=list)  # (user, password, role)


DEMO_MAIL_DOMAIN = "example.com"  # reserved for examples (RFC 2606): no mail leaves for real


def _user(username: str, password: str, *, groups: Sequence[Group] = (), **extra: Any) -> Any:
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        user = User(username=username, **extra)
        user.password = _hashed(password)
        user.save()
    if groups:
        user.groups.add(*groups)
    return user


@functools.cache
def _hashed(password: str) -> str:
    # Hashing is slow on purpose (about 0.4 s); the players share one demo password.
    return make_password(password)


def demo_start_date(today: dt.date, weeks_played: int) -> dt.date:
    """The first week's date, so that the part-played week is this week: the league meets on
    Thursdays, and the week after the ``weeks_played`` full ones falls on the latest Thursday
    on or before ``today``. The home page, the schedule and the venue's TV, which open on the
    week of today's date, then open on the tables being played, whenever the demo is seeded."""
    thursday = today - dt.timedelta(days=(today.weekday() - 3) % 7)
    return thursday - dt.timedelta(weeks=weeks_played)


@transaction.atomic
def build_demo(
    *, seed: int = SEED, weeks_played: int = WEEKS_PLAYED, today: dt.date | None = None
) -> DemoSummary:
    """Build the demo league (refused by the caller when it exists). Deterministic but for
    the dates, which follow ``today`` (the local date by default): see ``demo_start_date``."""
    today = today or timezone.localdate()
    rng = random.Random(seed)
    groups = {
        name: Group.objects.get_or_create(name=name)[0]
        for name in (JUDGES, LEAGUE_ADMINS, CAPTAINS, PLAYERS)
    }
    accounts: list[tuple[str, str, str]] = []
    _user(ADMIN[0], ADMIN[1], is_staff=True, is_superuser=True)
    accounts.append((*ADMIN, "superuser"))
    _user(JUDGE[0], JUDGE[1], groups=[groups[JUDGES]], is_staff=True)
    accounts.append((*JUDGE, "judge"))
    boss = _user(LEAGUE_ADMIN[0], LEAGUE_ADMIN[1], groups=[groups[LEAGUE_ADMINS]], is_staff=True)
    accounts.append((*LEAGUE_ADMIN, "league admin"))

    league = League.objects.create(
        name=LEAGUE_NAME,
        variant="partnership-121",
        target=121,
        games_per_match=3,
        points_per_win=1,
        skunk_margin=30,  # the sheet: "win by 30+ points = skunk"
        skunk_bonus=1,  # "a skunk is worth one extra point"
        double_skunk_margin=61,
        double_skunk_bonus=0,
        tiebreaks=["weeks_won", "head_to_head", "spread", "draw"],
        requires_confirmation=True,
    )
    venue, _ = Venue.objects.get_or_create(
        name="The Crooked Peg", defaults={"address": "12 Market Street"}
    )
    season = season_create(
        league=league, user=boss, name=SEASON_NAME, playoff_teams=4, draw_seed=seed
    )
    for team_name, names in TEAMS:
        players = []
        for i, name in enumerate(names):
            role = "captain" if i == 0 else "player"
            user = _user(
                name.lower(),
                PASSWORD,
                groups=[groups[PLAYERS], *([groups[CAPTAINS]] if i == 0 else [])],
                first_name=name,
                email=f"{name.lower()}@{DEMO_MAIL_DOMAIN}",  # the console shows their mails
            )
            accounts.append((name.lower(), PASSWORD, f"{role}, {team_name}"))
            player, _ = Player.objects.get_or_create(name=name, defaults={"user": user})
            players.append(player)
        team_create(season=season, user=boss, name=team_name, players=players, captain=players[0])
    weeks = schedule_create(
        season=season, user=boss, start_date=demo_start_date(today, weeks_played), venue=venue
    )
    season = season_publish(season=season, user=boss)
    summary = DemoSummary(league=league, season=season, accounts=accounts)
    for week in weeks[:weeks_played]:
        for match in week.matches.select_related("home", "away").order_by("table"):
            for number in range(1, season.games_per_match + 1):
                _play(rng, match, number, summary)
    if weeks_played < len(weeks):
        # The current week: table 1 done, table 2 part way through game 2, the rest to play.
        matches = list(weeks[weeks_played].matches.select_related("home", "away").order_by("table"))
        for number in range(1, season.games_per_match + 1):
            _play(rng, matches[0], number, summary)
        if len(matches) > 1:
            _play(rng, matches[1], 1, summary, disputed=DEMO_CLAIM)
            _play(rng, matches[1], 2, summary, stop_after=3)
        # The current week's night may be later this week: its organiser lets its matches
        # start any day, so whoever tries the demo can play them today (a later week's
        # games still wait for their night).
        for match in matches:
            match_early_start(
                match=match, user=boss, allow=True, reason="The demo: play this week any day."
            )
    return summary


# Table 2's first game of the current week: the other team disputes it instead of confirming,
# so the judges' queue has a dispute to work through and the standings say one game waits.
DEMO_CLAIM = (
    "Deal 2: we pegged a go for 1 at 31 that isn't on the sheet. We'd like a judge to look."
)


def _team_users(team: Team) -> list[Any]:
    players = sorted(team.players.select_related("user"), key=lambda p: p.pk != team.captain_id)
    return [p.user for p in players]


def _play(
    rng: random.Random,
    match: Any,
    number: int,
    summary: DemoSummary,
    *,
    stop_after: int | None = None,
    disputed: str | None = None,
) -> Game:
    """Game ``number`` of ``match``, entered by one captain and confirmed by the other team (or,
    with ``disputed``, disputed by it with that claim on deal 2)."""
    home, away = match.home, match.away
    entering, confirming = (home, away) if (match.table + number) % 2 else (away, home)
    home_players = list(home.players.order_by("name"))
    away_players = list(away.players.order_by("name"))
    if number % 2 == 0:
        home_players.reverse()
    seats = [home_players[0], away_players[0], home_players[1], away_players[1]]
    first_dealer = rng.randrange(len(seats))  # the cut for the first deal
    captain = _team_users(entering)[0]
    game = game_start(match=match, user=captain, seats=seats, first_dealer=first_dealer)
    variant = match.week.season.game_variant
    deals = random_game_deals(rng, variant, first_dealer, match.week.season.target)
    if stop_after is not None:
        deals = deals[:stop_after]
    for n, data in enumerate(deals, start=1):
        deal_record(game=game, user=captain, number=n, data=data)
    summary.games += 1
    summary.deals += len(deals)
    game.refresh_from_db()
    if game.status == GameStatus.FINISHED:
        other = _team_users(confirming)[-1]
        if disputed:
            dispute_raise(game=game, user=other, claim=disputed, deal_number=2)
            game.refresh_from_db()
        else:
            game = game_confirm(game=game, user=other)
    return game
