"""The playoff bracket as it stands, read from the seeding, the first-round layout stored at the
draw and the playoff matches (the draw and the advance that write it are
``league.services.playoffs``)."""

from __future__ import annotations

from typing import Any

from contest import brackets
from league.models import GameStatus, Match, Season, Team


def _winner_of(match: Match, *, games_per_match: int) -> Team | None:
    """The team that has won a majority of the match's confirmed games (``contest``'s rule)."""
    teams = {match.home_id: match.home, match.away_id: match.away}
    games = sorted(match.games.all(), key=lambda g: g.number)
    winners = [
        g.winner_id for g in games if g.status == GameStatus.CONFIRMED and g.winner_id in teams
    ]
    won = brackets.match_winner(winners, best_of=games_per_match)
    return teams[won] if won is not None else None


def playoff_bracket(season: Season) -> dict[str, Any]:
    """The bracket as it stands: rounds of slots with teams, seeds, match ids and winners.

    Computed from the round-one matches, the seeding, the first-round layout stored when the
    playoffs were drawn (``Season.playoff_slots``: a bracket drawn in an earlier order reads
    as it was drawn) and the results (a few queries whatever the season's size)."""
    matches = list(
        Match.objects.filter(week__season=season, playoff_round__isnull=False)
        .select_related("home", "away")
        .prefetch_related("games")
    )
    if not matches:
        return {"size": 0, "rounds": []}
    games_per_match = season.playoff_games_per_match
    seeds: dict[str, int] = {}
    seeding = list(season.playoff_seeding or [])
    for i, name in enumerate(seeding, start=1):
        seeds[name] = i
    size = brackets.bracket_size(len(seeding))
    order = season.playoff_slots or brackets.slot_order(size)
    by_slot = {(m.playoff_round, m.playoff_slot): m for m in matches}
    rounds: list[dict[str, Any]] = []
    # round 1 entrants per slot (a bye carries the high seed straight through)
    advancing: list[str | None] = []
    slots = []
    for slot, (high, low) in enumerate(brackets.pairings(order, len(seeding))):
        match = by_slot.get((1, slot))
        home = seeding[high - 1] if high <= len(seeding) else None
        away = seeding[low - 1] if low is not None else None
        winner = None
        if match is None and home and not away:
            winner = home  # bye
        elif match is not None:
            w = _winner_of(match, games_per_match=games_per_match)
            winner = w.name if w else None
        slots.append(_slot(1, slot, home, away, match, winner, seeds))
        advancing.append(winner)
    rounds.append({"round": 1, "slots": slots})
    rnd = 1
    while len(advancing) > 1:
        rnd += 1
        slots = []
        nxt: list[str | None] = []
        for slot in range(len(advancing) // 2):
            home, away = advancing[2 * slot], advancing[2 * slot + 1]
            match = by_slot.get((rnd, slot))
            winner = None
            if match is not None:
                w = _winner_of(match, games_per_match=games_per_match)
                winner = w.name if w else None
            slots.append(_slot(rnd, slot, home, away, match, winner, seeds))
            nxt.append(winner)
        rounds.append({"round": rnd, "slots": slots})
        advancing = nxt
    return {"size": size, "rounds": rounds, "champion": advancing[0] if advancing else None}


def _slot(
    rnd: int,
    slot: int,
    home: str | None,
    away: str | None,
    match: Match | None,
    winner: str | None,
    seeds: dict[str, int],
) -> dict[str, Any]:
    return {
        "round": rnd,
        "slot": slot,
        "home": home,
        "away": away,
        "home_seed": seeds.get(home or ""),
        "away_seed": seeds.get(away or ""),
        "match_id": match.pk if match else None,
        "winner": winner,
        "bye": bool(home) and away is None and rnd == 1,
    }
