"""Win probability read off the board: the table of each game and target, built from the deals
the league recorded, and a game's chances deal by deal. Information only: nothing here is read
by the standings, the seeding or any result.

The table (``contest.winprob.WinTable``) is built once per game, target and data version and kept
in this process; the version is how many games of that game and target are over, asked of the
database at most every ``CHECK_SECONDS`` and rounded to ``VERSION_STEP`` games, so a busy night
does not rebuild it after each game. The per-deal distributions are also kept in the shared cache
under that version, so each worker reads the deals once per version at most.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Q

from contest.winprob import (
    DealDistributions,
    RecordedDeal,
    WinTable,
    distributions_from_deals,
    prior_distributions,
)
from league.kernel.cache import cache_get, cache_set, winprob_key
from league.models import Deal, Game, GameStatus
from league.models.games import OVER_STATUSES
from scoring.variants import VARIANTS, Variant

CHECK_SECONDS = 300
VERSION_STEP = 25

_lock = threading.Lock()
# (variant, target) -> (checked at, version, table)
_tables: dict[tuple[str, int], tuple[float, int, WinTable]] = {}


def modelled(variant: str) -> bool:
    """Whether win probability is shown for ``variant`` (two-sided games only)."""
    return variant in VARIANTS and VARIANTS[variant].sides == 2


def _season_filter(variant: str, target: int, prefix: str) -> Q:
    return Q(
        **{
            f"{prefix}match__week__season__variant": variant,
            f"{prefix}match__week__season__target": target,
        }
    )


def data_version(variant: str, target: int) -> int:
    """How many games of ``variant`` to ``target`` are over, in steps of ``VERSION_STEP``."""
    over = Game.objects.filter(
        _season_filter(variant, target, ""), status__in=OVER_STATUSES, forfeit__isnull=True
    ).count()
    return over // VERSION_STEP


def recorded_deals(variant: str, target: int) -> Iterator[RecordedDeal]:
    """Every deal of the games of ``variant`` to ``target`` that are not void, with what was
    counted of it (the last deal of a game only up to where it ended): the counted version,
    never a rival entry. One query."""
    v = VARIANTS[variant]
    rows = (
        Deal.objects.filter(_season_filter(variant, target, "game__"), is_current=True)
        .filter(is_rival=False)
        .exclude(game__status=GameStatus.VOID)
        .values_list("dealer", "heels", "pegging", "shows", "crib")
        .order_by()
    )
    for dealer, heels, pegging, shows, crib in rows.iterator(chunk_size=2000):
        sample = _sample(v, dealer, heels, pegging, shows, crib)
        if sample is not None:
            yield sample


def _sample(
    v: Variant,
    dealer: int,
    heels: bool,
    pegging: Sequence[int],
    shows: dict[str, int],
    crib: int | None,
) -> RecordedDeal | None:
    if len(pegging) not in (0, 2):
        return None
    side = v.side_of(dealer)
    mine: list[int] = []
    theirs: list[int] = []
    for seat, points in shows.items():
        (mine if v.side_of(int(seat)) == side else theirs).append(points)
    played = bool(shows) and len(pegging) == 2  # the play ran to its end
    return RecordedDeal(
        dealer_pegging=pegging[side] if played else None,
        pone_pegging=pegging[1 - side] if played else None,
        dealer_hands=tuple(mine),
        pone_hands=tuple(theirs),
        crib=crib,
        heels=bool(heels),
    )


def _distributions(variant: str, target: int, version: int) -> DealDistributions:
    key = winprob_key(variant, target, version)
    found = cache_get(key)
    if isinstance(found, DealDistributions):
        return found
    dist = distributions_from_deals(variant, recorded_deals(variant, target))
    cache_set(key, dist)
    return dist


@functools.cache
def prior_table(variant: str, target: int) -> WinTable:
    """The table from the prior alone (no recorded deal): what the tests use by default, so a
    page's queries do not depend on whether this process built a table yet."""
    return WinTable.build(prior_distributions(variant), target=target)


def win_table(variant: str, target: int) -> WinTable:
    """The table of ``variant`` to ``target`` as the recorded games stand (see the module).
    With ``settings.PEGBOARD_WINPROB_FROM_DEALS`` false, the prior's table (no query)."""
    if not getattr(settings, "PEGBOARD_WINPROB_FROM_DEALS", True):
        return prior_table(variant, target)
    now = time.monotonic()
    kept = _tables.get((variant, target))
    if kept is not None and now - kept[0] < CHECK_SECONDS:
        return kept[2]
    version = data_version(variant, target)
    with _lock:
        if kept is not None and kept[1] == version:
            table = kept[2]
        else:
            table = WinTable.build(_distributions(variant, target, version), target=target)
        _tables[(variant, target)] = (now, version, table)
    return table


def forget_tables() -> None:
    """Drop every table kept in this process (tests; a command that rebuilt the data)."""
    _tables.clear()


@dataclass(frozen=True, slots=True)
class Chance:
    """Each team's chance after a deal (``deal`` 0: before the first), in whole percent too."""

    deal: int
    home_after: int
    away_after: int
    home: float

    @property
    def away(self) -> float:
        return 1.0 - self.home

    @property
    def home_percent(self) -> int:
        return round(self.home * 100)

    @property
    def away_percent(self) -> int:
        return 100 - self.home_percent

    def as_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "home_score": self.home_after,
            "away_score": self.away_after,
            "home": round(self.home, 4),
            "away": round(self.away, 4),
        }


def chance_at(
    table: WinTable, variant: Variant, game: Game, deals_played: int, home: int, away: int
) -> float:
    """The home team's chance with ``deals_played`` deals played and the scores at ``home``,
    ``away``: the next dealer follows the first dealer round the table."""
    dealer_seat = (game.first_dealer + deals_played) % variant.players
    dealer_side = variant.side_of(dealer_seat)
    scores = [0, 0]
    scores[game.home_side] = home
    scores[1 - game.home_side] = away
    chances = table.win_chances(scores, dealer_side=dealer_side)
    return chances[game.home_side]


def game_chance(game: Game, *, variant: str, target: int) -> Chance | None:
    """The game's current chances, or ``None`` for a game the model does not cover (three
    sides, a forfeit, a void game). No query once the table is built."""
    if not modelled(variant) or game.forfeit_id is not None or game.status == GameStatus.VOID:
        return None
    table = win_table(variant, target)
    home, away = game.home_at_hole, game.away_at_hole
    if game.is_over and game.winner_id is not None:
        won = game.winner_id == game.match.home_id
        return Chance(game.deal_count, home, away, 1.0 if won else 0.0)
    p = chance_at(table, VARIANTS[variant], game, game.deal_count, home, away)
    return Chance(game.deal_count, home, away, p)


def game_swing(game: Game, deals: Sequence[Deal], *, variant: str, target: int) -> list[Chance]:
    """The home team's chance before the first deal and after each of ``deals`` (the game's
    current deals, in order). Empty for a game the model does not cover."""
    if not modelled(variant) or game.forfeit_id is not None:
        return []
    table = win_table(variant, target)
    v = VARIANTS[variant]
    out = [Chance(0, 0, 0, chance_at(table, v, game, 0, 0, 0))]
    for i, deal in enumerate(deals, start=1):
        home, away = deal.after_at_hole(target)
        if home >= target or away >= target:
            out.append(Chance(deal.number, home, away, 1.0 if home >= target else 0.0))
            break
        out.append(Chance(deal.number, home, away, chance_at(table, v, game, i, home, away)))
    return out


def swing_chart(swing: Sequence[Chance], *, width: int = 320, height: int = 96) -> dict[str, Any]:
    """The points of a small line chart of the home team's chance (top: the home team wins),
    for an inline SVG: ``points`` as "x,y x,y", ``mid`` the 50% line's y, the size."""
    if not swing:
        return {}
    pad = 4
    step = (width - 2 * pad) / max(1, len(swing) - 1)
    pts = []
    for i, c in enumerate(swing):
        x = pad + i * step
        y = pad + (1.0 - c.home) * (height - 2 * pad)
        pts.append(f"{x:.1f},{y:.1f}")
    return {
        "points": " ".join(pts),
        "width": width,
        "height": height,
        "mid": height / 2,
        "last": pts[-1].split(","),
    }
