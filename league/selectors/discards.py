"""A player's discards, deal by deal: what each cost against the best discard of the cards they
were dealt (``contest.luck.discard_skill``, exact; pegging left out), and the season's summary.
Private to the player (the views show a player only their own), unless the player shares it:
then it shows in the season's table of the best discarders (:func:`best_discarders`),
information only, never read by the standings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from contest.luck import discard_skill
from league.checks import team_of
from league.models import Deal, DealtHand, GameSeat, Player, Season
from league.models.games import Game
from scoring.cards import Card
from scoring.errors import ScoringError


@dataclass
class DiscardRow:
    hand: DealtHand
    kept: list[str] | None  # the show's cards, where the deal has them
    own_crib: bool
    chosen: float | None = None  # expected points of the discard made
    best: float | None = None
    best_discard: str = ""

    @property
    def cost(self) -> float | None:
        if self.chosen is None or self.best is None:
            return None
        return self.best - self.chosen


@dataclass
class DiscardSummary:
    rows: list[DiscardRow] = field(default_factory=list)

    @property
    def counted(self) -> list[DiscardRow]:
        return [r for r in self.rows if r.cost is not None]

    @property
    def cost_per_deal(self) -> float | None:
        """The average points a deal the player's discards gave up against the best."""
        counted = self.counted
        return sum(r.cost or 0.0 for r in counted) / len(counted) if counted else None


def discards_of(
    player: Player, *, season: Season | None = None, game_id: int | None = None
) -> DiscardSummary:
    """The player's recorded dealt hands (of one season, or one game), each with its cost where
    the deal has the show's cards (two queries: the hands with their games, the deals)."""
    hands = DealtHand.objects.filter(player=player).select_related("game__match__week__season")
    if season is not None:
        hands = hands.filter(game__match__week__season=season)
    if game_id is not None:
        hands = hands.filter(game_id=game_id)
    return _summary(list(hands.order_by("game__match__week__date", "game_id", "number")))


def _summary(hands_list: list[DealtHand]) -> DiscardSummary:
    """The rows of these recorded hands, each with its cost where the deal has the show's cards
    (one query: the hands' current deals)."""
    deals = {
        (d.game_id, d.number): d
        for d in Deal.objects.filter(
            game_id__in={h.game_id for h in hands_list}, is_current=True, is_rival=False
        )
    }
    summary = DiscardSummary()
    for hand in hands_list:
        variant = hand.game.match.week.season.game_variant
        deal = deals.get((hand.game_id, hand.number))
        kept = ((deal.cards or {}).get(str(hand.seat)) if deal else None) or None
        own = deal is not None and variant.side_of(deal.dealer) == variant.side_of(hand.seat)
        row = DiscardRow(hand=hand, kept=kept, own_crib=own)
        if kept and deal is not None:
            dealt = [Card.from_str(c) for c in hand.cards]
            try:
                skill = discard_skill(
                    dealt, [Card.from_str(c) for c in kept], variant=variant.key, own_crib=own
                )
            except ScoringError:  # the show's cards are not among those dealt: no cost to tell
                summary.rows.append(row)
                continue
            row.chosen, row.best = skill.chosen, skill.best
            row.best_discard = " ".join(str(c) for c in skill.best_discard)
        summary.rows.append(row)
    return summary


#: Deals a sharing player needs with a cost told before the table of the best discarders ranks
#: them: fewer deals say more about the cards than about the discards. Said on the page.
MIN_DEALS = 10


@dataclass
class DiscarderRow:
    player: Player
    deals: int  # deals recorded with a cost told
    cost_per_deal: float


def best_discarders(season: Season, *, minimum: int = MIN_DEALS) -> list[DiscarderRow]:
    """The players of ``season`` who share their discards and have at least ``minimum`` deals
    with a cost told, the least cost a deal first (ties: more deals first, then by name). Two
    queries, however many players: the sharing players' hands, their deals."""
    hands = list(
        DealtHand.objects.filter(game__match__week__season=season, player__shares_discards=True)
        .select_related("game__match__week__season", "player")
        .order_by("player_id", "game_id", "number")
    )
    summary = _summary(hands)
    by_player: dict[int, list[DiscardRow]] = {}
    for row in summary.counted:
        by_player.setdefault(row.hand.player_id, []).append(row)
    rows = []
    for counted in by_player.values():
        if len(counted) >= minimum:
            cost = sum(r.cost or 0.0 for r in counted) / len(counted)
            rows.append(DiscarderRow(counted[0].hand.player, len(counted), cost))
    return sorted(rows, key=lambda r: (round(r.cost_per_deal, 9), -r.deals, r.player.name))


def dealt_seats(user: Any, game: Game) -> dict[int, bool]:
    """The seats of ``game`` whose cards dealt ``user`` may record, each with whether it is the
    user's own: their own seat, and the seats of the team they play for in this match (a
    teammate at the table, or a captain entering the deals). Empty for anyone else."""
    uid = getattr(user, "pk", None)
    if uid is None:
        return {}
    prefetched = getattr(game, "_prefetched_objects_cache", {})
    if "seats" in prefetched:  # the entry page read them with their players
        seats = list(game.seats.all())
    else:
        seats = list(GameSeat.objects.filter(game=game).select_related("player"))
    match = game.match
    team = team_of(user, match)
    variant = match.week.season.game_variant
    out: dict[int, bool] = {}
    for seat in seats:
        own = seat.player.user_id == uid
        side = variant.side_of(seat.seat)
        seat_team = match.home_id if side == game.home_side else match.away_id
        if own or (team is not None and seat_team == team):
            out[seat.seat] = own
    return out
