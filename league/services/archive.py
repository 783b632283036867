"""Season archives: one JSON document per season, in and out (``docs/formats/season-archive.md``).

Export (here) reads a season as the archive format names it: players, teams and seats by name,
pegging by team name, shows by player name. Import (``league.services.archive_import``) maps
those names back to the seat-based shape the score-entry services take and checks the whole
file in memory first (``import_plan``), with the checks the services make, shared rather than
copied (``team_check`` of ``team_create``; :class:`~league.services.game_build.GameBuild` runs
the seating checks of ``game_start``, replays every deal through the scorer as ``deal_record``
does and confirms as ``game_confirm`` does for a trusted caller). The first refusal raises
:class:`ArchiveRefused`, whose message names the week, match, game and deal ("Week 2, Fifteen
Two v Nobs, game 1, deal 7: A hand can never score 19."), before anything is written.
``import_write`` then stores the checked season with bulk inserts in batches of short
transactions (so score entry in other seasons goes on; the season stays hidden as
``importing`` until the last one), writes the same audit entries the services write, marks the
standings stale once, and deletes everything again if any step fails: all or nothing, as when
the whole file was one transaction.

Semantics chosen where the format is silent:

- **Confirmation.** An archive records results, not the confirmation workflow. The import acts
  as a trusted caller (``Trusted(user, "season import")``): a game finishes exactly as for a
  captain, and every game that finished is then confirmed as ``game_confirm`` confirms for a
  trusted caller, vouching for both teams (the archive is the record);
  ``confirmed_by`` is the importing user (None from the command line) and the audit trail says
  "season import". Unfinished games stay in progress. So standings after an import count every
  finished game of the file.
- **Export of games awaiting confirmation** (a team's, or a judge's when disputed). They are
  written like any finished game (an archive restores them as confirmed; the dispute itself is
  not in the format), and the exported ``standings``/``seeding`` are what the archive restores
  to: they count those games too. :func:`export_season` lists them in
  ``ExportResult.unconfirmed`` so the command can say so. Void games are left out (they never
  count), and so are playoff weeks (the format has no playoff rounds; standings never count them).
- **League and rules.** The league is found by name, or created with the file's rules as its
  defaults. The rules in the file are the imported season's own rules: a season keeps the rules
  it was played by, so a league whose rules changed between seasons restores every season.
- **Teams and players.** A player is found by name or created (names are unique). The first
  player of a team is its captain (export writes the captain first). Weeks get the file's number
  and date; a match's first team is at home; tables are numbered in file order; a game's first
  dealer is the first deal's dealer (seat 0 for a game without deals).
- **The season's state.** ``"state"`` is the season's life when exported (``draft``,
  ``published``, ``running`` or ``finished``, with ``"finished_reason"`` when the organiser
  gave one). Running is not stored (it follows from the dates), so ``running`` and
  ``published`` both import as published, and the dates make it running again. An archive
  without ``state`` (written before seasons had a life) imports as it did: running when its
  league has no open season, else finished.
- **The cards dealt.** A deal's ``"dealt"`` holds the cards each player recorded as dealt to
  them (by name, only the players who recorded them, only when one did), and the league's
  ``"dealt_cards"`` setting is written when it is not off. On import they are checked against
  the deal as a player's record is (``league.services.discards.dealt_check``) and stored for the
  player in that seat; the setting is taken only by a league the import creates (an existing
  league keeps its own). Archives without them import as before: nothing recorded, setting off.
- ``"final"`` is written for every game (the score after its last deal) and checked when present;
  ``"standings"`` and ``"seeding"`` are checked when present, on the keys each row gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Field, Prefetch
from django.utils import timezone

from league.kernel import archive_reader as reader
from league.kernel.errors import ValidationFailed
from league.models import (
    Deal,
    DealtCards,
    Forfeit,
    Game,
    GameSeat,
    GameStatus,
    League,
    Match,
    Season,
)
from league.models.games import AWAITING_STATUSES
from league.models.rules import RULE_FIELDS as SEASON_RULES
from league.selectors.standings import compute_standings
from league.selectors.subs import subs_of
from league.services.season_ops import OPS_FIELDS
from league.standings_row import ARCHIVED
from scoring.variants import Variant

# A season's night settings, carried where they differ from the defaults: the season's own list
# (``OPS_FIELDS``, the one the organiser's form and the admin edit), so a setting added there is
# archived too (``send_week_story`` was listed there only, and lost on a round trip).
NIGHT_SETTINGS = OPS_FIELDS

FORMAT = "pegboard-season"
VERSION = 1

# The rules the format carries: a season's own rules but those the format has no word for
# (a playoff match's length, whether results need confirmation, the irregularity rules played
# and whether rulings are published keep their defaults).
RULE_FIELDS = tuple(
    name
    for name in SEASON_RULES
    if name
    not in ("playoff_games_per_match", "requires_confirmation", "irregularities", "publish_rulings")
)
# The format's standings columns, in its order: the row's columns marked ``archived``.
STANDINGS_FIELDS = tuple(column.key for column in ARCHIVED)

# Limits checked before anything reaches the database (``league.kernel.archive_reader``), so a
# crafted archive is refused with the same sentence on SQLite and PostgreSQL.
NAME_LIMIT, SMALL_LIMIT, BIG_LIMIT = reader.NAME_LIMIT, reader.SMALL_LIMIT, reader.BIG_LIMIT


class ArchiveRefused(ValidationFailed):
    """The file was refused; ``message`` says where and why. Nothing of it was stored."""


def standings_rows(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The public columns of computed standings (what the archive and the command print)."""
    return [{key: row[key] for key in STANDINGS_FIELDS} for row in data["standings"]]


# --------------------------------------------------------------------------------------------
# Export
# --------------------------------------------------------------------------------------------


@dataclass
class ExportResult:
    archive: dict[str, Any]
    unconfirmed: list[str] = field(default_factory=list)  # games exported before confirmation


def _rules(rules: League | Season) -> dict[str, Any]:
    """The settings the archive format carries (a season's own rules, when exporting)."""
    return {name: getattr(rules, name) for name in RULE_FIELDS}


def _match_label(week_number: int, home: str, away: str) -> str:
    return f"Week {week_number}, {home} v {away}"


def export_season(season: Season) -> ExportResult:
    """The season as an archive (a JSON-ready dict), with per-game ``final`` and the season's
    ``standings`` and ``seeding``."""
    league = season.league
    variant = season.game_variant
    teams = list(season.teams.prefetch_related("players").select_related("captain"))
    team_rows = []
    for team in sorted(teams, key=lambda t: t.name):
        others = sorted(p.name for p in team.players.all() if p.pk != team.captain_id)
        team_rows.append({"name": team.name, "players": [team.captain.name, *others]})

    games_qs = (
        Game.objects.exclude(status=GameStatus.VOID)
        .order_by("number")
        .prefetch_related(
            Prefetch("seats", queryset=GameSeat.objects.select_related("player").order_by("seat")),
            Prefetch("deals", queryset=Deal.objects.filter(is_current=True).order_by("number")),
            "dealt_hands",
        )
    )
    weeks = (
        season.weeks.filter(is_playoff=False)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "matches",
                queryset=Match.objects.select_related("home", "away").order_by("table", "pk"),
            ),
            Prefetch("matches__games", queryset=games_qs),
            Prefetch("matches__forfeits", queryset=Forfeit.objects.select_related("team")),
        )
    )
    unconfirmed: list[str] = []
    week_rows = []
    for week in weeks:
        match_rows = []
        for match in week.matches.all():
            game_rows = []
            forfeit = next((f for f in match.forfeits.all() if f.undone_at is None), None)
            for game in match.games.all():
                if game.forfeit_id is not None:
                    continue  # no deal to write: the match's "forfeit" holds these games
                # The format has no status: the archive holds it as played, an import confirms it.
                if game.status in AWAITING_STATUSES:
                    unconfirmed.append(
                        f"{_match_label(week.number, match.home.name, match.away.name)}, "
                        f"game {game.number}"
                        + (" (disputed)" if game.status == GameStatus.DISPUTED else "")
                    )
                game_rows.append(_export_game(game, match, variant))
            row: dict[str, Any] = {"teams": [match.home.name, match.away.name]}
            if match.date is not None:
                row["date"] = match.date.isoformat()
            row["games"] = game_rows
            if forfeit is not None:
                row["forfeit"] = {
                    "team": forfeit.team.name,
                    "reason": forfeit.reason,
                    "games": sorted(
                        g.number for g in match.games.all() if g.forfeit_id == forfeit.pk
                    ),
                }
            match_rows.append(row)
        week_row: dict[str, Any] = {
            "number": week.number,
            "date": week.date.isoformat() if week.date else None,
        }
        if week.cancelled_reason:
            week_row["cancelled"] = week.cancelled_reason
        week_row["matches"] = match_rows
        week_rows.append(week_row)
    standings = _standings_as_archived(season, bool(unconfirmed))
    archive = {
        "format": FORMAT,
        "version": VERSION,
        "league": {
            "name": league.name,
            "rules": _rules(season),
            # whether players record their cards dealt, only when they do (older readers)
            **({"dealt_cards": league.dealt_cards} if league.dealt_cards != DealtCards.OFF else {}),
        },
        "season": {
            "name": season.name,
            "playoff_teams": season.playoff_teams,
            "draw_seed": season.draw_seed,
            "state": season.state_on(timezone.localdate()).value,
            **({"finished_reason": season.finished_reason} if season.finished_reason else {}),
            # the night settings only where they differ from the defaults (older readers, and
            # archives of seasons that never changed them, stay as they were)
            **{
                name: getattr(season, name)
                for name in NIGHT_SETTINGS
                if getattr(season, name) != _default(name)
            },
        },
        "teams": team_rows,
        # the sub list only when the season has one (older readers, and seasons without subs)
        **({"subs": subs} if (subs := [p.name for p in subs_of(season)]) else {}),
        "weeks": week_rows,
        "standings": standings_rows(standings),
        "seeding": list(standings["seeding"]),
    }
    return ExportResult(archive=archive, unconfirmed=unconfirmed)


def _default(name: str) -> Any:
    """A season field's default value (what an archive leaves out)."""
    field = Season._meta.get_field(name)
    assert isinstance(field, Field)  # the night settings are the season's own columns
    return field.get_default()


def _standings_as_archived(season: Season, pending: bool) -> dict[str, Any]:
    """The standings the archive restores to. With games awaiting confirmation, they are
    computed as if confirmed, in a transaction that is rolled back (the selector stays the one
    definition of standings; nothing is changed)."""
    if not pending:
        return compute_standings(season)
    with transaction.atomic():
        Game.objects.filter(match__week__season=season, status__in=AWAITING_STATUSES).update(
            status=GameStatus.CONFIRMED, confirmed_at=timezone.now()
        )
        data = compute_standings(season)
        transaction.set_rollback(True)
    return data


def _export_game(game: Game, match: Match, variant: Variant) -> dict[str, Any]:
    names = {s.seat: s.player.name for s in game.seats.all()}
    side_team = {
        game.home_side: match.home.name,
        1 - game.home_side: match.away.name,
    }
    dealt: dict[tuple[int, int], list[str]] = {
        (hand.number, hand.seat): list(hand.cards) for hand in game.dealt_hands.all()
    }
    deals = []
    for deal in game.deals.all():
        row: dict[str, Any] = {"dealer": names[deal.dealer]}
        if deal.starter:
            row["starter"] = deal.starter
        elif deal.heels:
            row["heels"] = True
        row["pegging"] = {side_team[side]: pts for side, pts in enumerate(deal.pegging)}
        shows = {int(seat): pts for seat, pts in deal.shows.items()}
        row["shows"] = {
            names[seat]: shows[seat] for seat in variant.show_order(deal.dealer) if seat in shows
        }
        if deal.crib is not None:
            row["crib"] = deal.crib
        if deal.cards:
            cards: dict[str, list[str]] = {}
            for who in sorted(deal.cards, key=lambda w: (w == "crib", w)):
                cards["crib" if who == "crib" else names[int(who)]] = list(deal.cards[who])
            row["cards"] = cards
        recorded = {
            names[seat]: dealt[(deal.number, seat)]
            for seat in sorted(names)
            if (deal.number, seat) in dealt
        }
        if recorded:
            row["dealt"] = recorded
        deals.append(row)
    return {
        "seats": [names[seat] for seat in sorted(names)],
        "deals": deals,
        "final": {match.home.name: game.home_score, match.away.name: game.away_score},
    }


def season_by_name(name: str, league: str | None = None) -> Season:
    """The season called ``name`` (in ``league``, when given); refused when none or several."""
    seasons = Season.objects.select_related("league").filter(name=name)
    if league:
        seasons = seasons.filter(league__name=league)
    found = list(seasons[:10])
    if not found:
        where = f" in {league}" if league else ""
        raise ValidationFailed(f"No season called {name!r}{where}.")
    if len(found) > 1:
        leagues = ", ".join(s.league.name for s in found)
        raise ValidationFailed(
            f"Several leagues have a season called {name!r} ({leagues}): say which with --league."
        )
    return found[0]
