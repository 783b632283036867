"""Luck, read from the confirmed deals: per player and per team of a season, and the week's
luckiest cut. Information only: nothing here is read by the standings, seeding or results.

For every show and crib counted: **points above expectation** is its total minus the average
show of the game's hand (or crib) size over every hand and starter (``contest.luck``); where its
cards were entered, its **luck of the cut** is its total minus its own average over every
starter it could have had. A crib counts for the dealer who owned it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from contest.luck import cut_luck, expected_show
from league.models import Deal, Game, GameSeat, GameStatus, Player, Season, Week
from scoring.cards import Card
from scoring.variants import Variant


@dataclass
class Luck:
    """One player's or team's luck over a set of deals."""

    shows: int = 0  # shows and cribs counted
    above: float = 0.0  # points above expectation, summed
    cut_shows: int = 0  # shows and cribs with their cards
    cut: float = 0.0  # luck of the cut, summed
    best: dict[str, Any] | None = None  # the luckiest cut

    def add(self, hand: dict[str, Any]) -> None:
        self.shows += 1
        self.above += hand["above"]
        if hand["cut"] is not None:
            self.cut_shows += 1
            self.cut += hand["cut"]
            if self.best is None or hand["cut"] > self.best["cut"]:
                self.best = hand


@dataclass
class SeasonLuck:
    season: Season
    luck: Luck = field(default_factory=Luck)


def _hand(
    game: Game, v: Variant, deal: Deal, who: str, seat: int, points: int, player: Player
) -> dict[str, Any]:
    crib = who == "crib"
    size = v.crib_size if crib else v.hand_size
    cards = (deal.cards or {}).get(who)
    cut = None
    if cards and deal.starter:
        cut = cut_luck([Card.from_str(c) for c in cards], Card.from_str(deal.starter), crib=crib)
    return {
        "game": game,
        "deal": deal.number,
        "player": player,
        "side": v.side_of(seat),
        "crib": crib,
        "points": points,
        "cards": cards,
        "starter": deal.starter,
        "above": points - expected_show(hand_size=size, crib=crib),
        "cut": cut,
    }


def luck_by_season(hands: Iterable[dict[str, Any]]) -> list[SeasonLuck]:
    """The luck of the shows and cribs a player's or team's statistics already read
    (``league.selectors.stats``' ``Stats.hands``), season by season, latest first: no query."""
    by_season: dict[int, SeasonLuck] = {}
    for row in hands:
        season = row["match"].week.season
        variant = season.game_variant
        crib = row["crib"]
        size = variant.crib_size if crib else variant.hand_size
        cut = None
        if row["cards"] and row["starter"]:
            cards = [Card.from_str(c) for c in row["cards"]]
            cut = cut_luck(cards, Card.from_str(row["starter"]), crib=crib)
        hand = {
            **row,
            "game": {"pk": row["game_id"]},
            "above": row["points"] - expected_show(hand_size=size, crib=crib),
            "cut": cut,
        }
        by_season.setdefault(season.pk, SeasonLuck(season)).luck.add(hand)
    return sorted(by_season.values(), key=lambda s: -s.season.pk)


def luckiest_cut(week: Week) -> dict[str, Any] | None:
    """The week's luckiest cut: the show or crib whose starter gave it the most above its own
    average, among the deals with cards of the week's confirmed games (two queries: those
    deals with their games, the seats)."""
    deals = list(
        Deal.objects.filter(
            game__match__week=week,
            game__status=GameStatus.CONFIRMED,
            is_current=True,
            cards__isnull=False,
        )
        .exclude(starter="")
        .select_related("game__match__week__season", "game__match__home", "game__match__away")
        .order_by("game_id", "number")
    )
    seats: dict[int, dict[int, Player]] = {}
    seated = GameSeat.objects.filter(
        game__match__week=week, game__status=GameStatus.CONFIRMED
    ).select_related("player")
    for seat in seated:
        seats.setdefault(seat.game_id, {})[seat.seat] = seat.player
    best = Luck()
    for deal in deals:
        game = deal.game
        variant = game.match.week.season.game_variant
        table = seats.get(game.pk, {})
        for seat_key, points in deal.shows.items():
            player = table.get(int(seat_key))
            if player is not None:
                best.add(_hand(game, variant, deal, seat_key, int(seat_key), points, player))
        if deal.crib is not None and deal.dealer in table:
            best.add(_hand(game, variant, deal, "crib", deal.dealer, deal.crib, table[deal.dealer]))
    return best.best
