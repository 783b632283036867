"""Season archives: one JSON document per season, in and out (``shared/formats/season-archive.md``).

Export reads a season as the archive format names it: players, teams and seats by name, pegging
by team name, shows by player name. Import maps those names back to the seat-based shape the
score-entry services take and goes through the same services a captain's entry does
(:func:`~league.services.seasons.team_create`, :func:`~league.services.games.game_start`,
:func:`~league.services.games.deal_record`), so every deal is replayed through the scorer. The
whole file is one transaction: the first refusal raises :class:`ArchiveRefused`, whose message
names the week, match, game and deal ("Week 2, Fifteen Two v Nobs, game 1, deal 7: A hand can
never score 19."), and nothing of the file is stored.

Semantics chosen where the format is silent:

- **Confirmation.** An archive records results, not the confirmation workflow. The import acts
  as a trusted caller (``Trusted(user, "season import")``): ``deal_record`` finishes a game
  exactly as for a captain, and every game that finished is then confirmed through
  ``game_confirm``, where a trusted caller vouches for both teams (the archive is the record);
  ``confirmed_by`` is the importing user (None from the command line) and the audit trail says
  "season import". Unfinished games stay in progress. So standings after an import count every
  finished game of the file.
- **Export of games awaiting confirmation.** They are written like any finished game (an archive
  restores them as confirmed), and the exported ``standings``/``seeding`` are what the archive
  restores to: they count those games too. :func:`export_season` lists them in
  ``ExportResult.unconfirmed`` so the command can say so. Void games are left out (they never
  count), and so are playoff weeks (the format has no playoff rounds; standings never count them).
- **League and rules.** The league is found by name, or created with the file's rules as its
  defaults. The rules in the file are the imported season's own rules: a season keeps the rules
  it was played by, so a league whose rules changed between seasons restores every season.
- **Teams and players.** A player is found by name or created (names are unique). The first
  player of a team is its captain (export writes the captain first). Weeks get the file's number
  and date; a match's first team is at home; tables are numbered in file order; a game's first
  dealer is the first deal's dealer (seat 0 for a game without deals).
- ``"final"`` is written for every game (the score after its last deal) and checked when present;
  ``"standings"`` and ``"seeding"`` are checked when present, on the keys each row gives.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from league.errors import DomainError, ValidationFailed
from league.models import (
    Deal,
    Game,
    GameSeat,
    GameStatus,
    League,
    Match,
    Player,
    Season,
    Team,
    Week,
)
from league.models.rules import LEAGUE_VARIANTS
from league.models.rules import RULE_FIELDS as SEASON_RULES
from league.permissions import Trusted
from league.ranking import chain_of
from league.selectors.standings import compute_standings
from league.services.audit import audit_log
from league.services.games import deal_record, game_confirm, game_start
from league.services.seasons import team_create
from league.standings_row import ARCHIVED
from scoring.variants import Variant, get_variant

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
DEAL_FIELDS = ("dealer", "starter", "heels", "pegging", "shows", "crib", "cards")

# Limits checked before anything reaches the database, so a crafted archive is refused with the
# same sentence on SQLite (which stores nearly anything) and PostgreSQL (which raises DataError).
NAME_LIMIT = 120  # characters: the name columns of leagues, seasons, teams and players
SMALL_LIMIT = 32_767  # the largest value of the small-integer columns (weeks, rules, playoffs)
BIG_LIMIT = 2**63 - 1  # the largest number any column holds (a draw seed)
TEXT_LIMIT = 10_000  # characters of any one text in an archive
DEPTH_LIMIT = 16  # an archive is about ten levels deep (weeks, matches, games, deals, cards)


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
        )
    )
    unconfirmed: list[str] = []
    week_rows = []
    for week in weeks:
        match_rows = []
        for match in week.matches.all():
            game_rows = []
            for game in match.games.all():
                if game.status == GameStatus.FINISHED:
                    unconfirmed.append(
                        f"{_match_label(week.number, match.home.name, match.away.name)}, "
                        f"game {game.number}"
                    )
                game_rows.append(_export_game(game, match, variant))
            match_rows.append({"teams": [match.home.name, match.away.name], "games": game_rows})
        week_rows.append(
            {
                "number": week.number,
                "date": week.date.isoformat() if week.date else None,
                "matches": match_rows,
            }
        )
    standings = _standings_as_archived(season, bool(unconfirmed))
    archive = {
        "format": FORMAT,
        "version": VERSION,
        "league": {"name": league.name, "rules": _rules(season)},
        "season": {
            "name": season.name,
            "playoff_teams": season.playoff_teams,
            "draw_seed": season.draw_seed,
        },
        "teams": team_rows,
        "weeks": week_rows,
        "standings": standings_rows(standings),
        "seeding": list(standings["seeding"]),
    }
    return ExportResult(archive=archive, unconfirmed=unconfirmed)


def _standings_as_archived(season: Season, pending: bool) -> dict[str, Any]:
    """The standings the archive restores to. With games awaiting confirmation, they are
    computed as if confirmed, in a transaction that is rolled back (the selector stays the one
    definition of standings; nothing is changed)."""
    if not pending:
        return compute_standings(season)
    with transaction.atomic():
        Game.objects.filter(match__week__season=season, status=GameStatus.FINISHED).update(
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
        deals.append(row)
    return {
        "seats": [names[seat] for seat in sorted(names)],
        "deals": deals,
        "final": {match.home.name: game.home_score, match.away.name: game.away_score},
    }


# --------------------------------------------------------------------------------------------
# Import
# --------------------------------------------------------------------------------------------


class _Reader:
    """Reads the archive with a running "where" so every refusal names its place."""

    def __init__(self) -> None:
        self.where: list[str] = []

    def refuse(self, message: str) -> ArchiveRefused:
        prefix = ", ".join(self.where)
        return ArchiveRefused(f"{prefix}: {message}" if prefix else message)

    @contextmanager
    def at(self, label: str) -> Iterator[None]:
        self.where.append(label)
        try:
            yield
        except ArchiveRefused:
            raise
        except DomainError as exc:
            raise self.refuse(exc.message) from None
        finally:
            self.where.pop()

    def obj(
        self,
        value: Any,
        what: str,
        *,
        required: Sequence[str] = (),
        optional: Sequence[str] = (),
    ) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.refuse(f"{what} must be a JSON object.")
        for key in required:
            if key not in value:
                raise self.refuse(f"{what} has no {key!r}.")
        unknown = sorted(set(value) - set(required) - set(optional))
        if unknown:
            raise self.refuse(f"{what} has an unknown field {unknown[0]!r}.")
        return value

    def list(self, value: Any, what: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.refuse(f"{what} must be a list.")
        return value

    def text(self, value: Any, what: str, *, max_length: int = NAME_LIMIT) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.refuse(f"{what} must be a name (text).")
        if len(value.strip()) > max_length:
            raise self.refuse(f"{what} must be at most {max_length} characters.")
        return value.strip()

    def int(self, value: Any, what: str, *, minimum: int = 0, maximum: int = SMALL_LIMIT) -> int:
        if type(value) is not int or value < minimum:
            raise self.refuse(f"{what} must be a whole number of at least {minimum}.")
        if value > maximum:
            raise self.refuse(f"{what} must be at most {maximum}.")
        return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def archive_parse(raw: bytes | str) -> Any:
    """The archive in ``raw`` (a file's bytes) as parsed JSON, or :class:`ArchiveRefused` with a
    sentence: past ``PEGBOARD_ARCHIVE_MAX_BYTES``, not UTF-8, not JSON, or nested too deeply."""
    limit = settings.PEGBOARD_ARCHIVE_MAX_BYTES
    if len(raw) > limit:
        raise ArchiveRefused(
            f"The archive is larger than {limit:,} bytes: split the season or ask the "
            "administrator to raise PEGBOARD_ARCHIVE_MAX_BYTES."
        )
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ArchiveRefused(
                f"The archive is not UTF-8 text (byte {exc.start + 1}): save it again as UTF-8."
            ) from None
    else:
        text = raw
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise ArchiveRefused(
            f"The archive is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})."
        ) from None
    except RecursionError:
        raise ArchiveRefused(_TOO_DEEP) from None
    except ValueError as exc:  # NaN, Infinity, or an integer of more than 4,300 digits
        raise ArchiveRefused(f"The archive has {exc}.") from None


_TOO_DEEP = (
    f"The archive is nested too deeply (more than {DEPTH_LIMIT} levels): it is not a season."
)


def _check_shape(data: Any) -> None:
    """Depth, numbers and texts of the whole document, walked without recursion."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > DEPTH_LIMIT:
            raise ArchiveRefused(_TOO_DEEP)
        if isinstance(value, Mapping):
            stack.extend(
                (v, f"{where}.{k}" if where else str(k), depth + 1) for k, v in value.items()
            )
        elif isinstance(value, list):
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value))
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int) and not -BIG_LIMIT <= value <= BIG_LIMIT:
            raise ArchiveRefused(f"The archive, at {where}: this number is too large.")
        elif isinstance(value, float) and not math.isfinite(value):
            raise ArchiveRefused(f"The archive, at {where}: {value} is not a number JSON allows.")
        elif isinstance(value, str) and len(value) > TEXT_LIMIT:
            raise ArchiveRefused(
                f"The archive, at {where}: a text longer than {TEXT_LIMIT:,} characters."
            )


def import_season(data: Any, *, user: Any = None) -> Season:
    """Store the season of archive ``data`` (parsed JSON) through the services, all or nothing.

    Raises :class:`ArchiveRefused` naming the place and the rule; then nothing was stored.
    """
    _check_shape(data)
    r = _Reader()
    doc = r.obj(
        data,
        "The archive",
        required=("format", "version", "league", "season", "teams", "weeks"),
        optional=("standings", "seeding"),
    )
    if doc["format"] != FORMAT:
        raise r.refuse(
            f"This is not a season archive: format is {doc['format']!r}, not {FORMAT!r}."
        )
    if doc["version"] != VERSION or type(doc["version"]) is not int:
        raise r.refuse(
            f"This archive is version {doc['version']!r}; this Pegboard reads version {VERSION}."
        )
    user = Trusted(user, "season import")
    with transaction.atomic():
        league, rules = _import_league(r, doc["league"])
        variant = get_variant(rules["variant"])
        season = _import_season_row(r, doc["season"], league, rules)
        teams = _import_teams(r, doc["teams"], season, user)
        counts = _import_weeks(r, doc["weeks"], season, teams, variant, user)
        _check_standings(r, doc, season)
        audit_log(
            actor=user,
            action="season_import",
            obj=season,
            after={"teams": len(teams), **counts},
            reason="Imported from a season archive",
        )
    return season


def _import_league(r: _Reader, raw: Any) -> tuple[League, dict[str, Any]]:
    """The league (made, with the archive's rules as its defaults, if it is new here) and the
    rules the archived season was played by: a season keeps its own rules, so an archive whose
    rules differ from the league's current defaults (or from its other seasons) is welcome."""
    with r.at("League"):
        doc = r.obj(raw, "The league", required=("name", "rules"))
        name = r.text(doc["name"], "The league's name")
        rules_doc = r.obj(doc["rules"], "The rules", required=("variant",), optional=RULE_FIELDS)
        rules = _rules_from(r, rules_doc)
        league = League.objects.filter(name=name).first()
        if league is None:
            league = League.objects.create(name=name, **rules)
        return league, rules


def _rules_from(r: _Reader, doc: Mapping[str, Any]) -> dict[str, Any]:
    known = dict(LEAGUE_VARIANTS)
    variant_key = doc["variant"]
    if not isinstance(variant_key, str) or variant_key not in known:
        raise r.refuse(
            f"Unknown game {variant_key!r}; a league plays one of {', '.join(sorted(known))}."
        )
    defaults = {f.name: f.get_default() for f in League._meta.get_fields() if f.name in RULE_FIELDS}
    defaults["target"] = get_variant(variant_key).target
    rules: dict[str, Any] = {"variant": variant_key}
    for key in RULE_FIELDS[1:]:
        if key == "tiebreaks":
            value = doc.get(key, defaults[key])
            tiebreaks = r.list(value, "The tie-breaks")
            try:
                chain_of(tiebreaks)
            except (ValueError, TypeError) as exc:
                raise r.refuse(str(exc)) from None
            rules[key] = list(tiebreaks)
            continue
        minimum = 0 if key.endswith("bonus") or key == "points_per_win" else 1
        rules[key] = r.int(doc.get(key, defaults[key]), f"The rule {key}", minimum=minimum)
    if rules["double_skunk_margin"] < rules["skunk_margin"]:
        raise r.refuse("A double skunk can't take a smaller margin than a skunk.")
    return rules


def _import_season_row(r: _Reader, raw: Any, league: League, rules: Mapping[str, Any]) -> Season:
    with r.at("Season"):
        doc = r.obj(raw, "The season", required=("name",), optional=("playoff_teams", "draw_seed"))
        name = r.text(doc["name"], "The season's name")
        if Season.objects.filter(league=league, name=name).exists():
            raise r.refuse(f"{league.name} already has a season called {name}.")
        playoff_teams = r.int(doc.get("playoff_teams", 4), "playoff_teams")
        draw_seed = doc.get("draw_seed", 0)
        if type(draw_seed) is not int or not -BIG_LIMIT <= draw_seed <= BIG_LIMIT:
            raise r.refuse("draw_seed must be a whole number.")
        return Season.objects.create(
            league=league,
            name=name,
            playoff_teams=playoff_teams,
            draw_seed=draw_seed,
            is_current=not league.seasons.filter(is_current=True).exists(),
            **rules,
        )


def _import_teams(r: _Reader, raw: Any, season: Season, user: Any) -> dict[str, Team]:
    teams: dict[str, Team] = {}
    for doc_raw in r.list(raw, "teams"):
        doc = r.obj(doc_raw, "A team", required=("name", "players"))
        name = r.text(doc["name"], "A team's name")
        with r.at(f"Team {name}"):
            if name in teams:
                raise r.refuse("The archive lists this team twice.")
            names = [r.text(p, "A player") for p in r.list(doc["players"], "players")]
            players = [Player.objects.get_or_create(name=n)[0] for n in names]
            captain = players[0] if players else None
            teams[name] = team_create(
                season=season,
                user=user,
                name=name,
                players=players,
                captain=captain,
            )
    return teams


def _import_weeks(
    r: _Reader,
    raw: Any,
    season: Season,
    teams: dict[str, Team],
    variant: Variant,
    user: Any,
) -> dict[str, int]:
    roster = {
        name: set(team.players.values_list("name", flat=True)) for name, team in teams.items()
    }
    counts = {"weeks": 0, "matches": 0, "games": 0, "deals": 0}
    seen_weeks: set[int] = set()
    for week_raw in r.list(raw, "weeks"):
        week_doc = r.obj(week_raw, "A week", required=("number", "matches"), optional=("date",))
        number = r.int(week_doc["number"], "A week's number", minimum=1)
        with r.at(f"Week {number}"):
            if number in seen_weeks:
                raise r.refuse("The archive lists this week twice.")
            seen_weeks.add(number)
            date = _date(r, week_doc.get("date"))
            week = Week.objects.create(season=season, number=number, date=date)
            counts["weeks"] += 1
            for table, match_raw in enumerate(r.list(week_doc["matches"], "matches"), start=1):
                _import_match(r, match_raw, week, table, teams, roster, variant, user, counts)
    return counts


def _date(r: _Reader, value: Any) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise r.refuse(f"{value!r} is not a date like 2026-09-03.") from None


def _import_match(
    r: _Reader,
    raw: Any,
    week: Week,
    table: int,
    teams: dict[str, Team],
    roster: dict[str, set[str]],
    variant: Variant,
    user: Any,
    counts: dict[str, int],
) -> None:
    doc = r.obj(raw, "A match", required=("teams", "games"))
    names = r.list(doc["teams"], "A match's teams")
    if len(names) != 2:
        raise r.refuse("A match is two teams.")
    for name in names:
        if not isinstance(name, str) or name not in teams:
            raise r.refuse(f"Unknown team {name!r}: it is not in the archive's teams.")
    home_name, away_name = names
    if home_name == away_name:
        raise r.refuse(f"{home_name} can't play itself.")
    with r.at(f"{home_name} v {away_name}"):
        match = Match.objects.create(
            week=week, home=teams[home_name], away=teams[away_name], table=table
        )
        counts["matches"] += 1
        for number, game_raw in enumerate(r.list(doc["games"], "games"), start=1):
            with r.at(f"game {number}"):
                counts["deals"] += _import_game(
                    r, game_raw, match, number, home_name, away_name, roster, variant, user
                )
                counts["games"] += 1


def _import_game(
    r: _Reader,
    raw: Any,
    match: Match,
    number: int,
    home_name: str,
    away_name: str,
    roster: dict[str, set[str]],
    variant: Variant,
    user: Any,
) -> int:
    doc = r.obj(raw, "A game", required=("seats", "deals"), optional=("final",))
    seats = [r.text(s, "A seat") for s in r.list(doc["seats"], "seats")]
    if len(seats) != variant.players:
        raise r.refuse(
            f"A game of {variant.name} seats {variant.players} players, not {len(seats)}."
        )
    for name in seats:
        if name not in roster[home_name] | roster[away_name]:
            raise r.refuse(f"Unknown player {name!r}: not a player of {home_name} or {away_name}.")
    seat_of = {name: seat for seat, name in enumerate(seats)}
    deals = r.list(doc["deals"], "deals")
    first_dealer = 0
    first = deals[0] if deals and isinstance(deals[0], Mapping) else {}
    if isinstance(first.get("dealer"), str) and first["dealer"] in seat_of:
        first_dealer = seat_of[first["dealer"]]
    game = game_start(
        match=match,
        user=user,
        seats=seats,
        first_dealer=first_dealer,
        number=number,
    )
    side_of_team = {
        home_name: game.home_side,
        away_name: 1 - game.home_side,
    }
    for deal_number, deal_raw in enumerate(deals, start=1):
        with r.at(f"deal {deal_number}"):
            if game.is_over:
                raise r.refuse(
                    f"The game was over after deal {deal_number - 1}: nothing more can be recorded."
                )
            data = _deal_data(r, deal_raw, seat_of, side_of_team, variant)
            deal_record(
                game=game,
                user=user,
                number=deal_number,
                data=data,
            )
            game.refresh_from_db()
    if "final" in doc:
        final = r.obj(doc["final"], "final", required=(home_name, away_name))
        ours = {home_name: game.home_score, away_name: game.away_score}
        for team, score in ours.items():
            if final[team] != score:
                raise r.refuse(
                    f"The final score says {team} {final[team]!r}, but the deals give {score}."
                )
    if game.status == GameStatus.FINISHED:
        game_confirm(game=game, user=user)
    return len(deals)


def _deal_data(
    r: _Reader,
    raw: Any,
    seat_of: Mapping[str, int],
    side_of_team: Mapping[str, int],
    variant: Variant,
) -> dict[str, Any]:
    doc = r.obj(raw, "A deal", required=("dealer",), optional=DEAL_FIELDS[1:])

    def seat(name: Any, what: str) -> int:
        if not isinstance(name, str) or name not in seat_of:
            raise r.refuse(f"Unknown player {name!r} ({what}): not at this table.")
        return seat_of[name]

    data: dict[str, Any] = {"dealer": seat(doc["dealer"], "the dealer")}
    if "starter" in doc and doc["starter"] is not None:
        data["starter"] = doc["starter"]
    if "heels" in doc and doc["heels"] is not None:
        data["heels"] = doc["heels"]
    pegging_doc = doc.get("pegging")
    if pegging_doc is not None:
        pegging_doc = r.obj(pegging_doc, "The pegging", optional=list(side_of_team))
        pegging = [0] * variant.sides
        for team, points in pegging_doc.items():
            pegging[side_of_team[team]] = points
        data["pegging"] = pegging
    shows_doc = doc.get("shows") or {}
    if not isinstance(shows_doc, Mapping):
        raise r.refuse("The shows must be a JSON object of points per player.")
    data["shows"] = {str(seat(name, "a show")): points for name, points in shows_doc.items()}
    if "crib" in doc and doc["crib"] is not None:
        data["crib"] = doc["crib"]
    cards_doc = doc.get("cards")
    if cards_doc is not None:
        if not isinstance(cards_doc, Mapping):
            raise r.refuse("The cards must be a JSON object of cards per player and crib.")
        data["cards"] = {
            ("crib" if who == "crib" else str(seat(who, "cards"))): hand
            for who, hand in cards_doc.items()
        }
    return data


def _check_standings(r: _Reader, doc: Mapping[str, Any], season: Season) -> None:
    if "standings" not in doc and "seeding" not in doc:
        return
    computed = compute_standings(season)
    if "standings" in doc:
        with r.at("Standings"):
            rows = r.list(doc["standings"], "standings")
            ours = standings_rows(computed)
            if len(rows) != len(ours):
                raise r.refuse(f"The archive lists {len(rows)} teams; the season has {len(ours)}.")
            for place, (theirs, mine) in enumerate(zip(rows, ours, strict=True), start=1):
                row = r.obj(theirs, f"Row {place}", required=("team",), optional=STANDINGS_FIELDS)
                if row["team"] != mine["team"]:
                    raise r.refuse(
                        f"Row {place} is {row['team']!r} in the archive, but "
                        f"{mine['team']} from the games."
                    )
                for key in STANDINGS_FIELDS:
                    if key in row and row[key] != mine[key]:
                        raise r.refuse(
                            f"{mine['team']} has {key} {row[key]!r} in the archive, but "
                            f"{mine[key]} from the games."
                        )
    if "seeding" in doc:
        with r.at("Seeding"):
            seeding = r.list(doc["seeding"], "seeding")
            if seeding != computed["seeding"]:
                raise r.refuse(
                    f"The archive seeds {', '.join(map(str, seeding))}; the games seed "
                    f"{', '.join(computed['seeding'])}."
                )


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
