"""Luck, read from the confirmed deals: per player and per team of a season, and the week's
luckiest cut. Information only: nothing here is read by the standings, seeding or results.

For every show and crib counted: **points above expectation** is its total minus the average
show of the game's hand (or crib) size over every hand and starter (``contest.luck``); where its
cards were entered, its **luck of the cut** is its total minus its own average over every
starter it could have had. A crib counts for the dealer who owned it.

Where the player recorded the cards they were dealt (``league.models.DealtHand``), a show splits
further (``contest.luck.luck_split``): its luck of the cut is over the starters the player could
not see (their discards are not among them), and its **discard skill** is minus what the discard
cost against the best one of the same cards. Points above expectation sets a chosen hand against
a random one, so it mostly measures discarding; the split says which part was luck.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from contest.luck import cut_luck, expected_show, luck_split
from league.models import Deal, DealtHand, Game, GameSeat, GameStatus, Player, Season, Week
from scoring.cards import Card
from scoring.errors import ScoringError
from scoring.variants import Variant


@dataclass
class Luck:
    """One player's or team's luck over a set of deals."""

    shows: int = 0  # shows and cribs counted
    above: float = 0.0  # points above expectation, summed
    cut_shows: int = 0  # shows and cribs with their cards
    cut: float = 0.0  # luck of the cut, summed
    best: dict[str, Any] | None = None  # the luckiest cut
    discard_shows: int = 0  # shows whose cards dealt were recorded
    discard: float = 0.0  # discard skill, summed: minus each discard's cost (0 at best)

    def add(self, hand: dict[str, Any]) -> None:
        self.shows += 1
        self.above += hand["above"]
        if hand.get("discard") is not None:
            self.discard_shows += 1
            self.discard += hand["discard"]
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


DealtKey = tuple[int, int, int]  # game id, deal number, seat


def dealt_for(player: Player) -> dict[DealtKey, list[str]]:
    """The cards ``player`` recorded as dealt to them, by game, deal and seat (one query): what
    :func:`luck_by_season` splits their shows with. Private unless the player shares their
    discards: the views pass it only to the player or where they share."""
    return {
        (h.game_id, h.number, h.seat): list(h.cards)
        for h in DealtHand.objects.filter(player=player).only("game_id", "number", "seat", "cards")
    }


def luck_by_season(
    hands: Iterable[dict[str, Any]], *, dealt: Mapping[DealtKey, Sequence[str]] | None = None
) -> list[SeasonLuck]:
    """The luck of the shows and cribs a player's or team's statistics already read
    (``league.selectors.stats``' ``Stats.hands``), season by season, latest first: no query.
    With ``dealt`` (:func:`dealt_for`), each show whose cards dealt are known is split into the
    luck of the cut (over the starters its player could not see) and the discard skill."""
    by_season: dict[int, SeasonLuck] = {}
    for row in hands:
        season = row["match"].week.season
        variant = season.game_variant
        crib = row["crib"]
        size = variant.crib_size if crib else variant.hand_size
        cut = discard = None
        if row["cards"] and row["starter"]:
            cards = [Card.from_str(c) for c in row["cards"]]
            starter = Card.from_str(row["starter"])
            known = None if crib or not dealt else dealt.get(_key(row))
            split = None
            if known:
                own = variant.side_of(row["dealer"]) == variant.side_of(row["seat"])
                try:
                    split = luck_split(
                        cards,
                        starter,
                        dealt=[Card.from_str(c) for c in known],
                        variant=variant.key,
                        own_crib=own,
                    )
                except ScoringError:  # the show's cards are not among those dealt
                    split = None
            if split is not None:
                cut, discard = split.cut, split.discard
            else:
                cut = cut_luck(cards, starter, crib=crib)
        hand = {
            **row,
            "game": {"pk": row["game_id"]},
            "above": row["points"] - expected_show(hand_size=size, crib=crib),
            "cut": cut,
            "discard": discard,
        }
        by_season.setdefault(season.pk, SeasonLuck(season)).luck.add(hand)
    return sorted(by_season.values(), key=lambda s: -s.season.pk)


def _key(row: Mapping[str, Any]) -> DealtKey:
    return (row["game_id"], row["deal"], row["seat"])


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
