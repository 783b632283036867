"""The playoff bracket as it stands, read from the seeding, the first-round layout stored at the
draw and the playoff matches (the draw and the advance that write it are
``league.services.playoffs``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from contest import brackets
from league.kernel.audit import AuditAction
from league.models import AuditEntry, GameSeat, GameStatus, Match, Season, Team


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


def nights_played(season: Season) -> dict[int, int]:
    """How many regular-season nights each player sat at a table of ``season`` (a night counts
    once however many games they played in it; a void game is no night), by player id. One
    query."""
    rows = (
        GameSeat.objects.filter(
            game__match__week__season=season, game__match__week__is_playoff=False
        )
        .exclude(game__status=GameStatus.VOID)
        .values("player_id")
        .annotate(nights=Count("game__match__week", distinct=True))
    )
    return {row["player_id"]: row["nights"] for row in rows}


def nights_credited(season: Season) -> dict[int, list[list[Any]]]:
    """The nights each player is counted as having played without sitting at a table, when the
    season says so (``Season.playoff_absent_nights_count``): a night the other team forfeited
    counts for each player of the team that came, a cancelled night for each player of both
    teams. Each night as ``[week number, "forfeit" or "cancelled", the team that forfeited]``,
    by player id. Two queries; none when the season does not count them."""
    if not season.playoff_absent_nights_count:
        return {}
    seats = GameSeat.objects.filter(
        game__match__week__season=season, game__match__week__is_playoff=False
    ).exclude(game__status=GameStatus.VOID)
    sat = set(seats.values_list("player_id", "game__match__week__number"))
    matches = (
        Match.objects.filter(week__season=season, week__is_playoff=False)
        .select_related("week", "home", "away")
        .prefetch_related("forfeits__team", "home__players", "away__players")
    )
    credited: dict[int, list[list[Any]]] = {}
    for match in matches:
        week = match.week.number
        forfeit = next((f for f in match.forfeits.all() if f.undone_at is None), None)
        teams: list[Team]
        if match.week.cancelled_reason:
            why, by, teams = "cancelled", "", [match.home, match.away]
        elif forfeit is not None:
            came = match.away if forfeit.team_id == match.home_id else match.home
            why, by, teams = "forfeit", forfeit.team.name, [came]
        else:
            continue
        for team in teams:
            for player in team.players.all():
                if (player.pk, week) not in sat:
                    credited.setdefault(player.pk, []).append([week, why, by])
    return credited


def playoff_shortfalls(season: Season) -> dict[str, list[tuple[Any, ...]]]:
    """The season's teams that the playoff rule (``Season.playoff_min_nights``) keeps out of the
    draw, by name, each with its players short of the nights: the nights counted for them
    (played, plus those ``nights_credited``) and which nights were counted without being played
    (empty when the season has no such rule). Four queries."""
    needed = season.playoff_min_nights
    if not needed:
        return {}
    played = nights_played(season)
    credited = nights_credited(season)
    short: dict[str, list[tuple[Any, ...]]] = {}
    for team in season.teams.prefetch_related("players"):
        missing: list[tuple[Any, ...]] = []
        for p in sorted(team.players.all(), key=lambda p: p.name):
            nights = credited.get(p.pk, [])
            counted = played.get(p.pk, 0) + len(nights)
            if counted < needed:
                # (name, nights counted), and the nights counted without playing when any.
                missing.append((p.name, counted, nights) if nights else (p.name, counted))
        if missing:
            short[team.name] = missing
    return short


def counted_said(nights: Sequence[Sequence[Any]]) -> str:
    """Which nights were counted without being played, and why, in the reader's language:
    "week 3: Nobs forfeited; week 5: cancelled"."""
    parts = []
    for week, why, by in nights:
        if why == "forfeit":
            parts.append(_("week %(n)s: %(team)s forfeited") % {"n": week, "team": by})
        else:
            parts.append(_("week %(n)s: cancelled") % {"n": week})
    return "; ".join(parts)


def _row(player: Sequence[Any]) -> tuple[str, int, list[list[Any]]]:
    """A shortfall row as a draw's audit entry stored it (older entries have no nights
    counted)."""
    name, n = player[0], player[1]
    return name, int(n), list(player[2]) if len(player) > 2 else []


def shortfall_sentence(team: str, players: Sequence[Sequence[Any]], needed: int) -> str:
    """Why ``team`` is not in the playoffs, naming who is short, in the reader's language."""
    said = []
    for name, n, nights in map(_row, players):
        line = ngettext("%(name)s played %(n)s night", "%(name)s played %(n)s nights", n) % {
            "name": name,
            "n": n,
        }
        if nights:
            line += " " + _("(counted without playing: %(nights)s)") % {
                "nights": counted_said(nights)
            }
        said.append(line)
    who = ", ".join(said)
    return ngettext(
        "%(team)s is not in the playoffs: each player must play %(needed)s night, and %(who)s.",
        "%(team)s is not in the playoffs: each player must play %(needed)s nights, and %(who)s.",
        needed,
    ) % {"team": team, "needed": needed, "who": who}


@dataclass(frozen=True)
class Ineligible:
    """A team the playoffs' nights rule keeps out: its players short of the nights, each with
    the nights they played, and the nights the rule asks of each player."""

    team: str
    players: tuple[Sequence[Any], ...]
    needed: int

    @property
    def reasons(self) -> list[str]:
        """One sentence a player short, in the reader's language: "Dan played 1 of the 2 nights
        required"."""
        out = []
        for name, n, nights in map(_row, self.players):
            line = ngettext(
                "%(name)s played %(n)s of the %(needed)s night required",
                "%(name)s played %(n)s of the %(needed)s nights required",
                self.needed,
            ) % {"name": name, "n": n, "needed": self.needed}
            if nights:
                line += " " + _("(counted without playing: %(nights)s)") % {
                    "nights": counted_said(nights)
                }
            out.append(line)
        return out


def _draw_entry(season: Season) -> dict[str, Any]:
    """What the season's last playoff draw recorded (its audit entry's ``after``)."""
    entry = (
        AuditEntry.objects.filter(action=AuditAction.PLAYOFFS_CREATE, season_id=season.pk)
        .order_by("-at", "-id")
        .first()
    )
    return entry.after if entry is not None and isinstance(entry.after, dict) else {}


def playoff_ineligible(season: Season) -> dict[str, Any]:
    """Who the playoffs' nights rule keeps out, and why. Before the draw (``drawn`` false), the
    teams with a player short of the nights so far (``playoff_shortfalls``, live: two
    queries); once drawn, the teams the draw passed over for it, as they stood then (from its
    audit entry: one query). ``needed`` is the rule's nights (``None``: no rule, no list
    before the draw); ``teams`` a list of ``Ineligible``."""
    if season.playoff_seeding:
        after = _draw_entry(season)
        needed = after.get("min_nights") or season.playoff_min_nights
        teams = [
            Ineligible(team, tuple(players), int(needed or 0))
            for team, players in (after.get("excluded") or {}).items()
        ]
        return {"drawn": True, "needed": needed, "teams": teams}
    needed = season.playoff_min_nights
    short = playoff_shortfalls(season)
    return {
        "drawn": False,
        "needed": needed,
        "teams": [Ineligible(team, tuple(players), needed or 0) for team, players in short.items()],
    }


def playoff_exclusions(season: Season) -> list[str]:
    """Why each team the season's last playoff draw left out is not in it, in the reader's
    language (from the draw's audit entry: the facts as they were, not as they are now)."""
    after = _draw_entry(season)
    needed = after.get("min_nights") or 0
    return [
        shortfall_sentence(team, players, needed)
        for team, players in (after.get("excluded") or {}).items()
    ]
