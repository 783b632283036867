"""Team and player statistics, from confirmed games, deal by deal (a fixed number of queries).

Pegging is entered per side, so a player's pegging is their side's; shows are per player; a crib
belongs to the dealer (a team's cribs are its two players' cribs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet

from league.models import Deal, Game, GameSeat, GameStatus, Player, Team
from scoring.outcome import SkunkLevel

BEST_HANDS = 5
BIG_HANDS = (28, 29)


@dataclass
class Stats:
    """Counts and sums; the averages are worked out on read."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    skunks: int = 0
    skunked: int = 0
    double_skunks: int = 0
    deals: int = 0
    pegging: int = 0
    shows: int = 0
    show_points: int = 0
    cribs: int = 0
    crib_points: int = 0
    hands: list[dict[str, Any]] = field(default_factory=list)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games * 100 if self.games else None

    @property
    def average_show(self) -> float | None:
        return self.show_points / self.shows if self.shows else None

    @property
    def average_crib(self) -> float | None:
        return self.crib_points / self.cribs if self.cribs else None

    @property
    def pegging_per_deal(self) -> float | None:
        return self.pegging / self.deals if self.deals else None

    @property
    def best_hands(self) -> list[dict[str, Any]]:
        ordered = sorted(self.hands, key=lambda h: (-h["points"], h["game_id"], h["deal"]))
        return ordered[:BEST_HANDS]

    @property
    def big_hands(self) -> list[dict[str, Any]]:
        """Every 28 and 29 hand (and crib), best first."""
        return [
            h for h in sorted(self.hands, key=lambda h: -h["points"]) if h["points"] in BIG_HANDS
        ]

    @property
    def hands_28(self) -> int:
        return sum(1 for h in self.hands if h["points"] == 28)

    @property
    def hands_29(self) -> int:
        return sum(1 for h in self.hands if h["points"] == 29)


def _games() -> QuerySet[Game]:
    return Game.objects.filter(status=GameStatus.CONFIRMED).select_related(
        "match__week__season__league", "match__home", "match__away"
    )


def _deals(game_ids: list[int]) -> dict[int, list[Deal]]:
    by_game: dict[int, list[Deal]] = {}
    for deal in Deal.objects.filter(game_id__in=game_ids, is_current=True).order_by(
        "game_id", "number"
    ):
        by_game.setdefault(deal.game_id, []).append(deal)
    return by_game


def _seat_names(game_ids: list[int]) -> dict[int, dict[int, Player]]:
    names: dict[int, dict[int, Player]] = {}
    for seat in GameSeat.objects.filter(game_id__in=game_ids).select_related("player"):
        names.setdefault(seat.game_id, {})[seat.seat] = seat.player
    return names


def _hand(game: Game, deal: Deal, player: Player, points: int, *, who: str) -> dict[str, Any]:
    """One show or crib, with its cards when they were entered. ``who``: a seat or "crib"."""
    return {
        "points": points,
        "player": player.name,
        "player_id": player.pk,
        "crib": who == "crib",
        "cards": (deal.cards or {}).get(who),
        "starter": deal.starter,
        "game_id": game.pk,
        "deal": deal.number,
        "seat": deal.dealer if who == "crib" else int(who),
        "dealer": deal.dealer,
        "match": game.match,
    }


def _record(stats: Stats, game: Game, side_team_id: int) -> None:
    stats.games += 1
    won = game.winner_id == side_team_id
    if won:
        stats.wins += 1
        if game.skunk_level >= SkunkLevel.SKUNK:  # the skunk ladder's rungs (a double is a skunk)
            stats.skunks += 1
        if game.skunk_level >= SkunkLevel.DOUBLE:
            stats.double_skunks += 1
    else:
        stats.losses += 1
        if game.skunk_level >= SkunkLevel.SKUNK:
            stats.skunked += 1


def _tally(
    stats: Stats, game: Game, side: int, seats: set[int], players: dict[int, Player]
) -> None:
    """Add ``game``'s deals for ``seats`` (all on ``side``) to ``stats``."""
    variant = game.match.week.season.game_variant
    for deal in game.stat_deals:  # type: ignore[attr-defined]
        stats.deals += 1
        stats.pegging += deal.pegging[side] if side < len(deal.pegging) else 0
        for seat_key, points in deal.shows.items():
            seat = int(seat_key)
            if seat in seats:
                stats.shows += 1
                stats.show_points += points
                stats.hands.append(_hand(game, deal, players[seat], points, who=seat_key))
        if deal.crib is not None and deal.dealer in seats and variant.side_of(deal.dealer) == side:
            stats.cribs += 1
            stats.crib_points += deal.crib
            stats.hands.append(_hand(game, deal, players[deal.dealer], deal.crib, who="crib"))


def team_stats(team: Team) -> dict[str, Any]:
    """A team's record and averages over its confirmed games (three queries)."""
    games = list(_games().filter(Q(match__home=team) | Q(match__away=team)).order_by("pk"))
    ids = [g.pk for g in games]
    deals = _deals(ids)
    seats = _seat_names(ids)
    stats = Stats()
    for game in games:
        variant = game.match.week.season.game_variant
        side = game.side_for_team(team)
        game.stat_deals = deals.get(game.pk, [])  # type: ignore[attr-defined]
        mine = {s for s in seats.get(game.pk, {}) if variant.side_of(s) == side}
        _record(stats, game, team.pk)
        _tally(stats, game, side, mine, seats.get(game.pk, {}))
    return {"stats": stats, "games": games}


def player_stats(player: Player) -> dict[str, Any]:
    """A player's record and averages over the confirmed games they sat in (three queries)."""
    games = list(
        _games().filter(seats__player=player, match__week__season__importing=False).order_by("pk")
    )
    ids = [g.pk for g in games]
    deals = _deals(ids)
    seats = _seat_names(ids)
    stats = Stats()
    for game in games:
        variant = game.match.week.season.game_variant
        table = seats.get(game.pk, {})
        seat = next(s for s, p in table.items() if p.pk == player.pk)
        side = variant.side_of(seat)
        game.stat_deals = deals.get(game.pk, [])  # type: ignore[attr-defined]
        _record(stats, game, game.team_for_side(side).pk)
        _tally(stats, game, side, {seat}, table)
    return {"stats": stats, "games": games}
