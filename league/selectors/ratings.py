"""Ratings, read: the league's confirmed games as rated results, and the rating block of a
player's or team's page (one query each). Information only: the standings, seeding and results
never read a rating.

A rating is shown as its mean and its uncertainty (sigma) on the scale of
``contest.ratings.SCALE``, with its conservative value (mean less three sigmas, openskill's
ordinal), and is **provisional** until it counts ``PEGBOARD_RATING_PROVISIONAL_GAMES`` games.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Count, Max, Q

from contest.ratings import RatedResult, is_provisional, shown
from league.kernel.cache import cache_get, cache_set, win_chances_key
from league.kernel.ratings import Sides, rating_sources
from league.models import Game, GameSeat, GameStatus, Player, RatedGame, Rating, Team
from league.ratings import replay, win_chance


@dataclass(frozen=True)
class RatingView:
    """One rating as a page or the API shows it."""

    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> int:
        return shown(self.mu)

    @property
    def uncertainty(self) -> int:
        return shown(self.sigma)

    @property
    def conservative(self) -> int:
        """The rating less three uncertainties (openskill's ordinal), on the shown scale."""
        return shown(self.mu - 3 * self.sigma)

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games, threshold=provisional_games())

    def as_dict(self) -> dict[str, object]:
        return {
            "rating": self.rating,
            "uncertainty": self.uncertainty,
            "conservative": self.conservative,
            "games": self.games,
            "provisional": self.provisional,
            "mu": self.mu,
            "sigma": self.sigma,
        }


def provisional_games() -> int:
    """How many rated games a rating needs to stop being provisional (the setting)."""
    return int(settings.PEGBOARD_RATING_PROVISIONAL_GAMES)


def _view(row: Rating | None) -> RatingView | None:
    return None if row is None else RatingView(row.mu, row.sigma, row.games)


def player_rating(player: Player) -> RatingView | None:
    """The player's own rating, or None before their first rated game (one query)."""
    return _view(Rating.objects.filter(player=player, partner__isnull=True).first())


@dataclass(frozen=True)
class TeamRatings:
    """A team's rating block: its pair's rating (None: not rated, or not a team of two) and
    each player's own, by name."""

    pair: RatingView | None
    players: list[tuple[Player, RatingView | None]]


def team_ratings(team: Team) -> TeamRatings:
    """A team's block: its pair's rating (a team of two) and each player's, by the roster the
    page already loaded (``team.players``, prefetched), in one query."""
    players = sorted(team.players.all(), key=lambda p: p.name)
    ids = [p.pk for p in players]
    wanted = Q(player__in=ids, partner__isnull=True)
    pair = tuple(sorted(ids)) if len(ids) == 2 else None
    if pair is not None:
        wanted |= Q(player=pair[0], partner=pair[1])
    rows = list(Rating.objects.filter(wanted))
    own = {r.player_id: r for r in rows if r.partner_id is None}
    pair_row = next((r for r in rows if r.partner_id is not None), None)
    return TeamRatings(_view(pair_row), [(p, _view(own.get(p.pk))) for p in players])


def confirmed_results() -> list[RatedResult]:
    """Every confirmed league game as a rated result (two queries): the seats of each side,
    the winners first, at the time it was confirmed. A forfeit is no game played: not rated."""
    rated = Game.objects.filter(status=GameStatus.CONFIRMED, forfeit__isnull=True)
    games = rated.values_list("pk", "confirmed_at", "home_side", "winner_id", "match__home_id")
    seats: dict[int, list[tuple[int, int]]] = {}
    for game_id, seat, player_id in GameSeat.objects.filter(game__in=rated).values_list(
        "game_id", "seat", "player_id"
    ):
        seats.setdefault(game_id, []).append((seat, player_id))
    out = []
    for pk, at, home_side, winner_id, home_id in games:
        if winner_id is None or at is None:
            continue
        winning_side = home_side if winner_id == home_id else 1 - home_side
        table = seats.get(pk, [])
        out.append(
            RatedResult(
                "game",
                pk,
                at,
                winners=tuple(p for s, p in table if s % 2 == winning_side),
                losers=tuple(p for s, p in table if s % 2 != winning_side),
            )
        )
    return out


def standing_results() -> list[RatedResult]:
    """Every result the ratings count: the league's confirmed games and each registered
    source's (the tournaments' verified tables)."""
    results = confirmed_results()
    for source in rating_sources():
        results.extend(source())
    return [r for r in results if r.rateable]


def win_chances_before(at: datetime, games: Sequence[Sides]) -> list[float]:
    """For each game (its two sides' players), the first side's chance of beating the second
    from the ratings as they stood before ``at``: a replay of the results that came to stand
    before it (the stored ratings already count everything since). Registered with
    ``league.kernel.ratings`` for the club nights' upsets; the queries of
    :func:`standing_results`, whatever the number of games.

    A replay is a tenth of a second on a few thousand results and a night's story page is read
    by every visitor: the chances are kept in the cache under the night's start, its games and
    the rated results' state (their count and last id: an added result adds a row, a changed
    one replays and renumbers them all), so a page read again costs one query."""
    state = RatedGame.objects.aggregate(n=Count("id"), last=Max("id"))
    digest = hashlib.sha1(
        repr((at.isoformat(), [tuple(map(tuple, g)) for g in games], state)).encode()
    ).hexdigest()
    key = win_chances_key(digest)
    chances = cache_get(key)
    if isinstance(chances, list):
        return chances
    book = replay(r for r in standing_results() if r.at < at)
    chances = [win_chance(book, side, other) for side, other in games]
    cache_set(key, chances)
    return chances
