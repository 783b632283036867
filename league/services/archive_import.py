"""Season archives in: the whole file checked in memory first (:func:`import_plan`), then
written in short batches (:func:`import_write`), all or nothing. The format, the semantics
chosen where it is silent and the export: ``league.services.archive``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.db.models import Field, Q
from django.utils import timezone

from league.kernel import archive_reader as reader
from league.kernel.archive_reader import Reader, check_shape
from league.kernel.audit import AuditAction, audit_entry, audit_log
from league.kernel.entries import DEAL_FIELDS
from league.kernel.errors import ValidationFailed
from league.kernel.permissions import Action, Actor, Trusted, refuse_unless
from league.kernel.ratings import ratings_changed
from league.models import (
    AuditEntry,
    Deal,
    DealtCards,
    DealtHand,
    Game,
    GameSeat,
    League,
    Match,
    Player,
    Season,
    SeasonState,
    SeasonSub,
    StandingsSnapshot,
    Team,
    Week,
)
from league.models.rules import LEAGUE_VARIANTS
from league.ranking import chain_of
from league.selectors.standings import compute_standings
from league.services.archive import (
    BIG_LIMIT,
    FORMAT,
    NAME_LIMIT,
    NIGHT_SETTINGS,
    RULE_FIELDS,
    SMALL_LIMIT,
    STANDINGS_FIELDS,
    VERSION,
    ArchiveRefused,
    standings_rows,
)
from league.services.discards import dealt_check
from league.services.forfeits import forfeit_numbers_check, forfeit_restore
from league.services.game_build import GameBuild
from league.services.postponements import refuse_cancelling_played
from league.services.results import results_changed
from league.services.season_ops import BOOL_FIELDS
from league.services.seasons import refuse_players_taken, team_check
from scoring.variants import Variant, get_variant

# Games written per batch (one bulk insert, so one short transaction, per table): each holds
# SQLite's write lock for a fraction of a second (bench/import.py), so a captain's deal in
# another season waits about that long at most.
BATCH_GAMES = 50
# Seconds per 1,000 games and deals to write, as bench/import.py measured (3 December 2026,
# a shared 2-core machine at load 2-5: an idle one is faster, so the estimate errs long), for the
# command's estimate.
WRITE_SECONDS_PER_1000_ROWS = {"sqlite": 1.0, "postgresql": 1.6}


def archive_parse(raw: bytes | str) -> Any:
    """The archive in ``raw`` (a file's bytes) as parsed JSON, or :class:`ArchiveRefused` with a
    sentence: past ``PEGBOARD_ARCHIVE_MAX_BYTES``, not UTF-8, not JSON, or nested too deeply."""
    return reader.archive_parse(raw, refusal=ArchiveRefused)


def _reader() -> Reader:
    return Reader(ArchiveRefused, name_limit=NAME_LIMIT, number_limit=SMALL_LIMIT)


@dataclass
class ImportPlan:
    """A season archive read and checked in memory, every game replayed through the scorer,
    nothing written yet: what :func:`import_write` stores. ``games`` and ``deals`` say how big
    it is (the command's estimate)."""

    doc: Mapping[str, Any]
    user: Trusted
    league: League
    season: Season
    state: str  # the stored state: draft, published or finished
    finished_reason: str
    players: list[Player]  # the new ones (the others are found by name)
    teams: dict[str, Team]
    rosters: dict[str, list[Player]]
    weeks: list[tuple[Week, list[tuple[Match, list[GameBuild]]]]]
    counts: dict[str, int]
    subs: list[Player] = field(default_factory=list)  # the season's sub list

    @property
    def games(self) -> int:
        return self.counts["games"]

    @property
    def deals(self) -> int:
        return self.counts["deals"]

    def estimated_seconds(self, vendor: str) -> float:
        """How long writing is expected to take on database ``vendor`` (a measured rate)."""
        rate = WRITE_SECONDS_PER_1000_ROWS.get(vendor, max(WRITE_SECONDS_PER_1000_ROWS.values()))
        return (self.deals + self.games) / 1000 * rate


def import_season(data: Any, *, user: Actor | None = None) -> Season:
    """Store the season of archive ``data`` (parsed JSON), all or nothing: checked whole in
    memory (:func:`import_plan`), then written in short batches (:func:`import_write`).

    Raises :class:`ArchiveRefused` naming the place and the rule; then nothing was stored.
    """
    return import_write(import_plan(data, user=user))


def import_plan(data: Any, *, user: Actor | None = None) -> ImportPlan:
    """Read and check the whole archive, replaying every game through the scorer with the checks
    score entry makes (:class:`~league.services.game_build.GameBuild`, the team checks of
    ``team_create``), before anything is written. Reads the database (players and leagues by
    name), writes nothing. Raises :class:`ArchiveRefused` naming the place and the rule."""
    check_shape(data, refusal=ArchiveRefused)
    r = _reader()
    doc = r.obj(
        data,
        "The archive",
        required=("format", "version", "league", "season", "teams", "weeks"),
        optional=("standings", "seeding", "subs"),
    )
    if doc["format"] != FORMAT:
        raise r.refuse(
            f"This is not a season archive: format is {doc['format']!r}, not {FORMAT!r}."
        )
    if doc["version"] != VERSION or type(doc["version"]) is not int:
        raise r.refuse(
            f"This archive is version {doc['version']!r}; this Pegboard reads version {VERSION}."
        )
    trusted = Trusted(user, "season import")
    refuse_unless(trusted, Action.MANAGE_LEAGUE)
    league, rules = _plan_league(r, doc["league"])
    variant = get_variant(rules["variant"])
    season, state, finished_reason = _plan_season(r, doc["season"], league, rules)
    teams, rosters, players = _plan_teams(r, doc["teams"], season)
    subs = _plan_subs(r, doc.get("subs"), rosters, players)
    counts = {"weeks": 0, "matches": 0, "games": 0, "deals": 0}
    weeks = _plan_weeks(
        r, doc["weeks"], season, teams, rosters, variant, trusted, counts, subs=subs
    )
    return ImportPlan(
        doc=doc,
        user=trusted,
        league=league,
        season=season,
        state=state,
        finished_reason=finished_reason,
        players=players,
        teams=teams,
        rosters=rosters,
        weeks=weeks,
        counts=counts,
        subs=list(subs.values()),
    )


def import_write(plan: ImportPlan, *, progress: Callable[[int, int], None] | None = None) -> Season:
    """Store a checked plan with bulk inserts, in batches of about ``BATCH_GAMES`` games and
    short transactions, so score entry in other seasons goes on meanwhile (SQLite has one
    writer at a time).

    Until the last transaction the season is marked ``importing``: no page, list or API shows
    it, and it is not the league's current season. The last transaction checks the archive's
    standings and seeding against the stored games, writes the import's audit entry, shows the
    season and marks its standings stale once (one recompute after commit). If any step fails,
    everything written is deleted again and the error is raised: all or nothing.
    ``progress(games_written, games)`` is called after each batch.
    """
    season = plan.season
    new_league = plan.league.pk is None
    try:
        _write_teams(plan)
        done = 0
        batch: list[tuple[Week, Match | None, list[GameBuild]]] = []
        size = 0
        for week, matches in plan.weeks:
            if not matches:
                batch.append((week, None, []))  # a week with nothing scheduled yet
            for match, builds in matches:
                batch.append((week, match, builds))
                size += len(builds)
                if size >= BATCH_GAMES:
                    done += _write_batch(batch)
                    batch, size = [], 0
                    if progress is not None:
                        progress(done, plan.games)
        if batch:
            done += _write_batch(batch)
            if progress is not None:
                progress(done, plan.games)
        with transaction.atomic():
            _write_forfeits(plan)
            r = _reader()
            _check_standings(r, plan.doc, season)
            Season.objects.filter(pk=season.pk).update(
                importing=False,
                state=plan.state,
                finished_reason=plan.finished_reason,
                finished_at=timezone.now() if plan.state == SeasonState.FINISHED else None,
            )
            audit_log(
                actor=plan.user,
                action=AuditAction.SEASON_IMPORT,
                obj=season,
                after={"teams": len(plan.teams), **plan.counts},
                reason="Imported from a season archive",
            )
            results_changed(season_id=season.pk)
            ratings_changed()
    except BaseException as exc:
        if season.pk is not None:
            _discard(plan, new_league=new_league)
        if isinstance(exc, DatabaseError):
            raise ArchiveRefused(
                "The league changed while the file was being stored (someone added a player "
                "or a season of the same name?): nothing was imported; import it again."
            ) from exc
        raise
    analyze_after_bulk_write()
    season.refresh_from_db()
    return season


def analyze_after_bulk_write() -> None:
    """PostgreSQL plans queries from table statistics that autovacuum refreshes only later:
    after thousands of new rows, fresh statistics keep the first pages on their indexes."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for model in (Game, GameSeat, Deal, Match, Week, AuditEntry):
                cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def _write_teams(plan: ImportPlan) -> None:
    """The league (if new), the new players, the season (hidden) and its teams."""
    season = plan.season
    with transaction.atomic():
        if plan.league.pk is None:
            plan.league.save(force_insert=True)
        season.league = plan.league
        season.importing = True
        season.save(force_insert=True)
        Player.objects.bulk_create(plan.players)
        teams = list(plan.teams.values())
        Team.objects.bulk_create(teams)
        Team.players.through.objects.bulk_create(
            Team.players.through(team=team, player=player)
            for name, team in plan.teams.items()
            for player in plan.rosters[name]
        )
        AuditEntry.objects.bulk_create(
            audit_entry(
                actor=plan.user,
                action=AuditAction.TEAM_CREATE,
                obj=team,
                after={
                    "name": team.name,
                    "players": [p.name for p in plan.rosters[name]],
                    "captain": team.captain.name,
                },
            )
            for name, team in plan.teams.items()
        )
        SeasonSub.objects.bulk_create(SeasonSub(season=season, player=p) for p in plan.subs)
        AuditEntry.objects.bulk_create(
            audit_entry(
                actor=plan.user, action=AuditAction.SUB_ADD, obj=season, after={"player": p.name}
            )
            for p in plan.subs
        )


def _write_forfeits(plan: ImportPlan) -> None:
    """The archive's forfeits, once their matches are stored (``forfeit_restore``: the same
    games a forfeit recorded at the table makes)."""
    for _week, matches in plan.weeks:
        for match, _builds in matches:
            archived = getattr(match, "archived_forfeit", None)
            if archived is None:
                continue
            team_name, reason, numbers = archived
            team = plan.teams[team_name]
            forfeit_restore(match=match, team=team, reason=reason, numbers=numbers, user=plan.user)


def _write_batch(batch: Sequence[tuple[Week, Match | None, list[GameBuild]]]) -> int:
    """These matches (and their weeks, the first time) with their games, seats, deals and
    audit trail. Each bulk insert is its own short transaction (the season is hidden, and
    deleted again if a later one fails), and the rows of the next are built between them,
    outside any transaction: on SQLite the write lock is held only while rows are inserted, so
    a captain's deal gets in between. Returns the number of games written; the batch's rows
    are then let go (memory)."""
    weeks = {id(week): week for week, _match, _builds in batch if week.pk is None}
    builds = [b for _week, _match, bs in batch for b in bs]
    Week.objects.bulk_create(list(weeks.values()))
    Match.objects.bulk_create([match for _week, match, _builds in batch if match is not None])
    Game.objects.bulk_create([b.game for b in builds])
    GameSeat.objects.bulk_create([s for b in builds for s in b.seats])
    Deal.objects.bulk_create([d for b in builds for d in b.deal_rows()])
    DealtHand.objects.bulk_create([h for b in builds for h in b.dealt])
    AuditEntry.objects.bulk_create([e for b in builds for e in b.audit_entries()])
    for b in builds:
        b.release()
    return len(builds)


def _discard(plan: ImportPlan, *, new_league: bool) -> None:
    """Delete what a failed import wrote: its season, the players and the league it made."""
    _discard_season(plan.season)
    new_players = [p.pk for p in plan.players if p.pk is not None]
    Player.objects.filter(pk__in=new_players, teams=None, seats=None, sub_for_seasons=None).delete()
    if new_league and not Season.objects.filter(league=plan.league).exists():
        League.objects.filter(pk=plan.league.pk).delete()
    plan.season.pk = None


def _discard_season(season: Season) -> None:
    """Delete a season an import was writing, children first, in one transaction."""
    games = Game.objects.filter(match__week__season=season)
    with transaction.atomic():
        AuditEntry.objects.filter(Q(season=season) | Q(game__in=games)).delete()
        Deal.objects.filter(game__in=games).delete()
        GameSeat.objects.filter(game__in=games).delete()
        games.delete()
        Match.objects.filter(week__season=season).delete()
        Week.objects.filter(season=season).delete()
        StandingsSnapshot.objects.filter(season=season).delete()
        SeasonSub.objects.filter(season=season).delete()
        Team.players.through.objects.filter(team__season=season).delete()
        Team.objects.filter(season=season).delete()
        Season.objects.filter(pk=season.pk).delete()


def unfinished_imports_discard() -> list[str]:
    """Delete the seasons whose import never finished (its process was killed): they are shown
    nowhere, and their names block importing them again. Returns "League: Season" of each.
    Run it only when no import is running: a running import's season looks the same."""
    gone = []
    for season in Season.objects.filter(importing=True).select_related("league"):
        _discard_season(season)
        gone.append(f"{season.league.name}: {season.name}")
    return gone


def _plan_league(r: Reader, raw: Any) -> tuple[League, dict[str, Any]]:
    """The league (unsaved, with the archive's rules as its defaults, if it is new here) and the
    rules the archived season was played by: a season keeps its own rules, so an archive whose
    rules differ from the league's current defaults (or from its other seasons) is welcome."""
    with r.at("League"):
        doc = r.obj(raw, "The league", required=("name", "rules"), optional=("dealt_cards",))
        name = r.name(doc["name"], "The league's name")
        rules_doc = r.obj(doc["rules"], "The rules", required=("variant",), optional=RULE_FIELDS)
        rules = _rules_from(r, rules_doc)
        dealt = doc.get("dealt_cards", DealtCards.OFF)
        if dealt not in DealtCards.values:
            raise r.refuse(f"The league's dealt_cards is {dealt!r}: write off, allowed or asked.")
        league = League.objects.filter(name=name).first()
        if league is None:  # a league found keeps its own setting
            league = League(name=name, dealt_cards=dealt, **rules)
        return league, rules


def _rules_from(r: Reader, doc: Mapping[str, Any]) -> dict[str, Any]:
    known = dict(LEAGUE_VARIANTS)
    variant_key = doc["variant"]
    if not isinstance(variant_key, str) or variant_key not in known:
        raise r.refuse(
            f"Unknown game {variant_key!r}; a league plays one of {', '.join(sorted(known))}."
        )
    defaults = {
        f.name: f.get_default()
        for f in League._meta.get_fields()
        if f.name in RULE_FIELDS and isinstance(f, Field)  # the rules are columns: all of them
    }
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


ARCHIVE_STATES = {
    SeasonState.DRAFT.value: SeasonState.DRAFT,
    SeasonState.PUBLISHED.value: SeasonState.PUBLISHED,
    SeasonState.RUNNING.value: SeasonState.PUBLISHED,  # running follows from the dates
    SeasonState.FINISHED.value: SeasonState.FINISHED,
}


def _plan_season(
    r: Reader, raw: Any, league: League, rules: Mapping[str, Any]
) -> tuple[Season, str, str]:
    """The season (unsaved), the state it is stored in and why it finished (if it did)."""
    with r.at("Season"):
        doc = r.obj(
            raw,
            "The season",
            required=("name",),
            optional=("playoff_teams", "draw_seed", "state", "finished_reason", *NIGHT_SETTINGS),
        )
        name = r.name(doc["name"], "The season's name")
        same = Season.objects.filter(league=league, name=name) if league.pk else None
        if same is not None and same.filter(importing=True).exists():
            raise r.refuse(
                f"An import of {name} into {league.name} is running or was interrupted. If none "
                "is running, clear it with manage.py import_season --discard-unfinished, then "
                "import the file again."
            )
        if same is not None and same.exists():
            raise r.refuse(f"{league.name} already has a season called {name}.")
        playoff_teams = r.int(doc.get("playoff_teams", 4), "playoff_teams")
        draw_seed = doc.get("draw_seed", 0)
        if type(draw_seed) is not int or not -BIG_LIMIT <= draw_seed <= BIG_LIMIT:
            raise r.refuse("draw_seed must be a whole number.")
        if "state" in doc:
            state = ARCHIVE_STATES.get(doc["state"]) if isinstance(doc["state"], str) else None
            if state is None:
                raise r.refuse(
                    f"state must be one of {', '.join(ARCHIVE_STATES)}, not {doc['state']!r}."
                )
        else:  # an archive from before seasons had a life: what its import did then
            open_one = (
                league.pk is not None
                and league.seasons.filter(state=SeasonState.PUBLISHED).exists()
            )
            state = SeasonState.FINISHED if open_one else SeasonState.PUBLISHED
        reason = ""
        if "finished_reason" in doc:
            reason = r.text(doc["finished_reason"], "finished_reason", max_length=500)
            if state != SeasonState.FINISHED:
                reason = ""
        season = Season(
            league=league, name=name, playoff_teams=playoff_teams, draw_seed=draw_seed, **rules
        )
        for setting in NIGHT_SETTINGS:
            if setting not in doc:
                continue
            value = doc[setting]
            if setting in BOOL_FIELDS:
                if not isinstance(value, bool):
                    raise r.refuse(f"{setting} must be true or false.")
            elif value is not None:
                value = r.int(value, setting)
            setattr(season, setting, value)
        if season.send_week_story:
            # As when an organiser turns it on: from now, the weeks already over are not sent.
            season.week_story_since = timezone.now()
        return season, state.value, reason


def _plan_teams(
    r: Reader, raw: Any, season: Season
) -> tuple[dict[str, Team], dict[str, list[Player]], list[Player]]:
    """The teams (unsaved) with their players, checked as ``team_create`` checks them; the
    players are found by name, or new (returned last, unsaved)."""
    rows = r.list(raw, "teams")
    wanted = {
        p.strip()
        for row in rows
        if isinstance(row, Mapping) and isinstance(row.get("players"), list)
        for p in row["players"]
        if isinstance(p, str)
    }
    known = {p.name: p for p in Player.objects.filter(name__in=wanted)}
    new: list[Player] = []
    teams: dict[str, Team] = {}
    rosters: dict[str, list[Player]] = {}
    taken: dict[str, str] = {}  # player name -> team name, this season
    for doc_raw in rows:
        doc = r.obj(doc_raw, "A team", required=("name", "players"))
        name = r.name(doc["name"], "A team's name")
        with r.at(f"Team {name}"):
            if name in teams:
                raise r.refuse("The archive lists this team twice.")
            names = [r.name(p, "A player") for p in r.list(doc["players"], "players")]
            players = []
            for player_name in names:
                if player_name not in known:
                    known[player_name] = Player(name=player_name)
                    new.append(known[player_name])
                players.append(known[player_name])
            captain = players[0] if players else None
            name, captain = team_check(season=season, name=name, players=players, captain=captain)
            refuse_players_taken(players, taken)
            taken.update((p.name, name) for p in players)
            teams[name] = Team(season=season, name=name, captain=captain)
            rosters[name] = players
    return teams, rosters, new


def _plan_subs(
    r: Reader, raw: Any, rosters: Mapping[str, list[Player]], new: list[Player]
) -> dict[str, Player]:
    """The season's sub list (optional): players by name, found or new (appended to ``new``),
    none of them on a team of the season."""
    if raw is None:
        return {}
    on_teams = {p.name: team for team, players in rosters.items() for p in players}
    names = [r.name(name, "A sub") for name in r.list(raw, "subs")]
    known = {p.name: p for p in Player.objects.filter(name__in=names)}
    known.update((p.name, p) for p in new)
    subs: dict[str, Player] = {}
    for name in names:
        with r.at(f"Sub {name}"):
            if name in subs:
                raise r.refuse("The archive lists this sub twice.")
            if name in on_teams:
                raise r.refuse(f"{name} plays for {on_teams[name]}: a sub is on no team.")
            if name not in known:
                known[name] = Player(name=name)
                new.append(known[name])
            subs[name] = known[name]
    return subs


def _plan_weeks(
    r: Reader,
    raw: Any,
    season: Season,
    teams: dict[str, Team],
    rosters: dict[str, list[Player]],
    variant: Variant,
    user: Trusted,
    counts: dict[str, int],
    *,
    subs: Mapping[str, Player],
) -> list[tuple[Week, list[tuple[Match, list[GameBuild]]]]]:
    weeks = []
    seen_weeks: set[int] = set()
    for week_raw in r.list(raw, "weeks"):
        week_doc = r.obj(
            week_raw, "A week", required=("number", "matches"), optional=("date", "cancelled")
        )
        number = r.int(week_doc["number"], "A week's number", minimum=1)
        with r.at(f"Week {number}"):
            if number in seen_weeks:
                raise r.refuse("The archive lists this week twice.")
            seen_weeks.add(number)
            date = _date(r, week_doc.get("date"))
            week = Week(season=season, number=number, date=date)
            if week_doc.get("cancelled"):
                week.cancelled_reason = r.text(week_doc["cancelled"], "Why the night is cancelled")
            counts["weeks"] += 1
            matches = [
                _plan_match(
                    r, match_raw, week, table, teams, rosters, variant, user, counts, subs=subs
                )
                for table, match_raw in enumerate(r.list(week_doc["matches"], "matches"), start=1)
            ]
            if week.cancelled_reason:  # the app's rule: a played night is not cancelled
                refuse_cancelling_played(
                    played=any(
                        builds or getattr(match, "archived_forfeit", None)
                        for match, builds in matches
                    )
                )
            weeks.append((week, matches))
    return weeks


def _date(r: Reader, value: Any) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise r.refuse(f"{value!r} is not a date like 2026-09-03.") from None


def _plan_match(
    r: Reader,
    raw: Any,
    week: Week,
    table: int,
    teams: dict[str, Team],
    rosters: dict[str, list[Player]],
    variant: Variant,
    user: Trusted,
    counts: dict[str, int],
    *,
    subs: Mapping[str, Player],
) -> tuple[Match, list[GameBuild]]:
    doc = r.obj(raw, "A match", required=("teams", "games"), optional=("date", "forfeit"))
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
        match = Match(week=week, home=teams[home_name], away=teams[away_name], table=table)
        match.date = _date(r, doc.get("date"))
        if doc.get("forfeit") is not None:
            match.archived_forfeit = _plan_forfeit(  # type: ignore[attr-defined]  # for the write
                r, doc["forfeit"], match, (home_name, away_name), len(doc["games"])
            )
        counts["matches"] += 1
        builds = []
        for number, game_raw in enumerate(r.list(doc["games"], "games"), start=1):
            with r.at(f"game {number}"):
                build = _plan_game(
                    r,
                    game_raw,
                    match,
                    number,
                    home_name,
                    away_name,
                    rosters,
                    variant,
                    user,
                    subs=subs,
                )
                builds.append(build)
                counts["deals"] += len(build.normals)
                counts["games"] += 1
        return match, builds


def _plan_forfeit(
    r: Reader, raw: Any, match: Match, names: tuple[str, str], played: int
) -> tuple[str, str, list[int]]:
    """A match's forfeit: the team that forfeited (one of the two), why, and the numbers of
    the games it awarded, after the games played."""
    with r.at("forfeit"):
        doc = r.obj(raw, "A forfeit", required=("team", "reason", "games"))
        team = doc["team"]
        if team not in names:
            raise r.refuse(f"{team!r} does not play this match.")
        reason = r.text(doc["reason"], "Why it was forfeited")
        numbers = [
            r.int(n, "A forfeited game's number", minimum=1) for n in r.list(doc["games"], "games")
        ]
        forfeit_numbers_check(match, numbers, played=played)  # the table's rule: r.at says where
        return team, reason, numbers


def _plan_game(
    r: Reader,
    raw: Any,
    match: Match,
    number: int,
    home_name: str,
    away_name: str,
    rosters: dict[str, list[Player]],
    variant: Variant,
    user: Trusted,
    *,
    subs: Mapping[str, Player],
) -> GameBuild:
    doc = r.obj(raw, "A game", required=("seats", "deals"), optional=("final",))
    seats = [r.name(s, "A seat") for s in r.list(doc["seats"], "seats")]
    if len(seats) != variant.players:
        raise r.refuse(
            f"A game of {variant.name} seats {variant.players} players, not {len(seats)}."
        )
    at_table = {p.name: p for p in (*rosters[home_name], *rosters[away_name])}
    seated_subs = {name for name in seats if name not in at_table and name in subs}
    at_table.update((name, subs[name]) for name in seated_subs)
    for name in seats:
        if name not in at_table:
            raise r.refuse(
                f"Unknown player {name!r}: not a player of {home_name} or {away_name}, "
                "nor on the season's subs."
            )
    seat_of = {name: seat for seat, name in enumerate(seats)}
    deals = r.list(doc["deals"], "deals")
    first_dealer = 0
    first = deals[0] if deals and isinstance(deals[0], Mapping) else {}
    if isinstance(first.get("dealer"), str) and first["dealer"] in seat_of:
        first_dealer = seat_of[first["dealer"]]
    build = GameBuild(
        match=match,
        number=number,
        players=[at_table[name] for name in seats],
        first_dealer=first_dealer,
        user=user,
        rosters=(rosters[home_name], rosters[away_name]),
        subs=frozenset(seated_subs),
    )
    game = build.game
    side_of_team = {home_name: game.home_side, away_name: 1 - game.home_side}
    for deal_number, deal_raw in enumerate(deals, start=1):
        with r.at(f"deal {deal_number}"):
            if build.is_over:
                raise r.refuse(
                    f"The game was over after deal {deal_number - 1}: nothing more can be recorded."
                )
            dealt_doc = None
            if isinstance(deal_raw, Mapping) and "dealt" in deal_raw:
                dealt_doc = deal_raw["dealt"]
                deal_raw = {k: v for k, v in deal_raw.items() if k != "dealt"}
            build.record(_deal_data(r, deal_raw, seat_of, side_of_team, variant))
            if dealt_doc is not None:
                build.dealt.extend(_dealt_hands(r, dealt_doc, build, deal_number, seat_of))
    build.finish()
    if "final" in doc:
        final = r.obj(doc["final"], "final", required=(home_name, away_name))
        ours = {home_name: game.home_score, away_name: game.away_score}
        for team, score in ours.items():
            if final[team] != score:
                raise r.refuse(
                    f"The final score says {team} {final[team]!r}, but the deals give {score}."
                )
    return build


def _deal_data(
    r: Reader,
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


def _dealt_hands(
    r: Reader, raw: Any, build: GameBuild, number: int, seat_of: Mapping[str, int]
) -> list[DealtHand]:
    """A deal's ``"dealt"``: the cards each player recorded as dealt to them, checked against
    the deal as a player's own record is (``dealt_check``), unsaved."""
    doc = r.obj(raw, "The cards dealt", optional=list(seat_of))
    normal = build.normals[-1]
    hands = []
    for name, cards in doc.items():
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise r.refuse(f'The cards dealt to {name} must be a list of cards like "5H".')
        seat = seat_of[name]
        try:
            codes = dealt_check(
                cards,
                variant=build.variant,
                seat=seat,
                deal_cards=normal.get("cards"),
                starter=normal.get("starter"),
            )
        except ValidationFailed as error:
            raise r.refuse(f"The cards dealt to {name}: {error.message}") from None
        hands.append(
            DealtHand(
                game=build.game, number=number, seat=seat, player=build.players[seat], cards=codes
            )
        )
    return hands


def _check_standings(r: Reader, doc: Mapping[str, Any], season: Season) -> None:
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
