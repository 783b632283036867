"""Seasons (their life: draft, published, running, finished), teams and the schedule."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Count, Max, Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Conflict, DomainError, ValidationFailed
from league.kernel.permissions import Action, Actor, Trusted, refuse_unless
from league.models import (
    AuditEntry,
    Game,
    GameStatus,
    Match,
    Player,
    Season,
    SeasonState,
    Team,
    Venue,
    Week,
)
from league.selectors.playoffs import playoff_bracket
from league.selectors.unsettled import Unsettled, season_unsettled
from league.services.people import invitations_release

log = logging.getLogger(__name__)


def round_robin(n: int) -> list[list[tuple[int, int]]]:
    """Rounds of a single round robin for ``n`` teams (0..n-1) by the circle method.

    Each round is a list of ``(home, away)`` pairs; with an odd ``n`` one team sits out each
    round (a bye). Every pair meets exactly once; each team's home and away games differ by at
    most one.

    >>> [sorted(r) for r in round_robin(4)]
    [[(0, 3), (1, 2)], [(2, 0), (3, 1)], [(0, 1), (2, 3)]]
    """
    slots: list[int | None] = list(range(n))
    if n % 2:
        slots.append(None)  # the bye
    size = len(slots)
    rounds: list[list[tuple[int, int]]] = []
    for _r in range(size - 1):
        pairs: list[tuple[int, int]] = []
        for i in range(size // 2):
            a, b = slots[i], slots[size - 1 - i]
            if a is None or b is None:
                continue
            # Home by parity: of i < j, i is at home when i + j is odd. Every team then has
            # as many home as away games (one more of either when the count is odd).
            lo, hi = min(a, b), max(a, b)
            pairs.append((lo, hi) if (lo + hi) % 2 else (hi, lo))
        rounds.append(pairs)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


WEEKDAYS = (
    gettext_lazy("Mondays"),
    gettext_lazy("Tuesdays"),
    gettext_lazy("Wednesdays"),
    gettext_lazy("Thursdays"),
    gettext_lazy("Fridays"),
    gettext_lazy("Saturdays"),
    gettext_lazy("Sundays"),
)


def league_nights(
    *,
    first: dt.date,
    count: int,
    skip: Sequence[dt.date] = (),
    days_between: int = 7,
    weekday: int | None = None,
) -> list[dt.date]:
    """``count`` league nights from ``first`` (moved on to ``weekday`` if given), one every
    ``days_between`` days, the nights in ``skip`` passed over (a holiday moves the rest of the
    schedule back a week). A night to skip that the schedule never reaches is refused: it is
    almost always a typing slip (the 25th for the 26th), and an organiser wants to know.

    >>> [d.day for d in league_nights(first=dt.date(2026, 9, 1), count=3, weekday=3,
    ...                               skip=[dt.date(2026, 9, 10)])]
    [3, 17, 24]
    """
    if weekday is not None:
        if not 0 <= weekday <= 6:
            raise ValidationFailed(_("Choose the night of the week."), field="weekday")
        first = first + dt.timedelta(days=(weekday - first.weekday()) % 7)
    if days_between < 1:
        raise ValidationFailed(_("Nights must be at least a day apart."), field="days_between")
    skipped = set(skip)
    nights: list[dt.date] = []
    passed: set[dt.date] = set()
    night = first
    while len(nights) < count:
        if night in skipped:
            passed.add(night)
        else:
            nights.append(night)
        night += dt.timedelta(days=days_between)
    stray = sorted(skipped - passed)
    if stray:
        day = stray[0]
        raise ValidationFailed(
            _(
                "%(date)s is not a league night of this schedule (%(first)s to %(last)s, "
                "%(weekday)s), so there is nothing to skip that day. Check the date."
            )
            % {
                "date": date_format(day, "DATE_FORMAT"),
                "first": date_format(nights[0], "DATE_FORMAT"),
                "last": date_format(nights[-1], "DATE_FORMAT"),
                "weekday": WEEKDAYS[nights[0].weekday()]
                if days_between == 7
                else _("every %(n)s days") % {"n": days_between},
            },
            field="skip",
        )
    return nights


def _regular_weeks(season: Season) -> QuerySet[Week]:
    return season.weeks.filter(is_playoff=False)


def schedule_create(
    *,
    season: Season,
    user: Actor,
    start_date: dt.date | None = None,
    cycles: int = 1,
    venue: Venue | str | None = None,
    days_between: int = 7,
    weekday: int | None = None,
    skip: Sequence[dt.date] = (),
    tables: int | None = None,
    weeks: int | None = None,
    regenerate: bool = False,
) -> list[Week]:
    """Weeks and matches for a round robin of the season's teams (``cycles`` times around, or
    ``weeks`` rounds when given), with a date for each night: the first on or after
    ``start_date`` that falls on ``weekday``, then every week, the nights in ``skip`` passed
    over. ``venue`` may be a new venue's name. ``tables`` is how many tables the venue has:
    each night's matches are numbered 1, 2, ... and must fit. With an odd number of teams one
    team has a bye each week.

    In the second cycle every pairing swaps home and away. A season that already has a
    schedule is refused unless ``regenerate``: then the old schedule is replaced, as long as no
    game of the season has been played.
    """
    refuse_unless(user, Action.MANAGE_LEAGUE)
    teams = list(season.teams.order_by("name"))
    if len(teams) < 2:
        raise ValidationFailed(
            _("A schedule needs at least two teams: add the teams first."), field="teams"
        )
    if cycles < 1:
        raise ValidationFailed(_("Play at least one round."), field="cycles")
    rounds = round_robin(len(teams))
    if weeks is None:
        weeks = len(rounds) * cycles
    if type(weeks) is not int or not 1 <= weeks <= 99:
        raise ValidationFailed(_("A season has between 1 and 99 weeks."), field="weeks")
    per_night = len(teams) // 2
    if tables is not None:
        if type(tables) is not int or tables < 1:
            raise ValidationFailed(_("Say how many tables the venue has."), field="tables")
        if tables < per_night:
            raise ValidationFailed(
                _(
                    "%(teams)s teams play %(matches)s matches a night, but the venue has only "
                    "%(tables)s tables. Add tables or play at two venues."
                )
                % {"teams": len(teams), "matches": per_night, "tables": tables},
                field="tables",
            )
    if skip and start_date is None:
        raise ValidationFailed(_("Give the first night before the nights to skip."), field="skip")
    dates: list[dt.date | None] = (
        list(
            league_nights(
                first=start_date,
                count=weeks,
                skip=skip,
                days_between=days_between,
                weekday=weekday,
            )
        )
        if start_date
        else [None] * weeks
    )
    with transaction.atomic():
        Season.objects.select_for_update().filter(pk=season.pk).first()
        if isinstance(venue, str):
            venue = venue_create(user=user, name=venue) if venue.strip() else None
        replaced = 0
        if season.weeks.exists():
            if not regenerate:
                raise ValidationFailed(_("This season already has a schedule."))
            _refuse_if_played(season)
            if season.weeks.filter(is_playoff=True).exists():
                raise ValidationFailed(
                    _("The playoffs have been drawn: undo the draw before a new schedule.")
                )
            replaced = _regular_weeks(season).count()
            Match.objects.filter(week__season=season).delete()
            season.weeks.all().delete()
        made: list[Week] = []
        for number in range(1, weeks + 1):
            cycle, index = divmod(number - 1, len(rounds))
            week = Week.objects.create(
                season=season, number=number, date=dates[number - 1], venue=venue
            )
            for table, (h, a) in enumerate(rounds[index], start=1):
                home, away = (teams[h], teams[a]) if cycle % 2 == 0 else (teams[a], teams[h])
                Match.objects.create(week=week, home=home, away=away, table=table)
            made.append(week)
        audit_log(
            actor=user,
            action=AuditAction.SCHEDULE_CREATE,
            obj=season,
            before={"weeks": replaced} if replaced else None,
            after={
                "weeks": weeks,
                "teams": len(teams),
                "first": dates[0].isoformat() if dates[0] else None,
                "skip": sorted(d.isoformat() for d in skip),
                "venue": venue.name if venue else None,
                "tables": tables,
            },
        )
    return made


def _refuse_if_played(season: Season) -> None:
    first = (
        Game.objects.filter(match__week__season=season)
        .select_related("match__week")
        .order_by("match__week__number")
        .first()
    )
    if first is not None:
        raise ValidationFailed(
            _(
                "Week %(n)s has been played, so the schedule stands: move a match to another "
                "night instead (it keeps its games)."
            )
            % {"n": first.match.week.number}
        )


def schedule_clear(*, season: Season, user: Actor) -> int:
    """Undo a schedule: delete every week and match of a season that no game was played in
    (voided games count as played). Returns how many weeks went."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    with transaction.atomic():
        Season.objects.select_for_update().filter(pk=season.pk).first()
        _refuse_if_played(season)
        count = season.weeks.count()
        if not count:
            raise ValidationFailed(_("This season has no schedule to clear."))
        Match.objects.filter(week__season=season).delete()
        season.weeks.all().delete()
        if season.playoff_seeding is not None:
            season.playoff_seeding = None
            season.playoff_slots = None
            season.save(update_fields=["playoff_seeding", "playoff_slots"])
        audit_log(
            actor=user, action=AuditAction.SCHEDULE_CLEAR, obj=season, before={"weeks": count}
        )
    return count


def week_create(*, season: Season, user: Actor, date: dt.date, venue: Venue | None = None) -> Week:
    """A night added after the schedule (a make-up night for postponed matches): the next
    week number, on ``date``."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    with transaction.atomic():
        Season.objects.select_for_update().filter(pk=season.pk).first()
        same = season.weeks.filter(date=date).first()
        if same is not None:
            raise ValidationFailed(
                _("Week %(n)s is already on %(date)s: move the match to that week.")
                % {"n": same.number, "date": date_format(date, "DATE_FORMAT")},
                field="date",
            )
        number = (season.weeks.aggregate(n=Max("number"))["n"] or 0) + 1
        week = Week.objects.create(season=season, number=number, date=date, venue=venue)
        audit_log(
            actor=user,
            action=AuditAction.WEEK_CREATE,
            obj=week,
            after={
                "week": number,
                "date": date.isoformat(),
                "venue": venue.name if venue else None,
            },
        )
    return week


def week_update(
    *, week: Week, user: Actor, date: dt.date | None, venue: Venue | None = None
) -> Week:
    """A night's date and venue (a week keeps its season and its number: its matches and games
    are that season's)."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    with transaction.atomic():
        week = Week.objects.select_for_update().get(pk=week.pk)
        if date is not None:
            same = week.season.weeks.filter(date=date).exclude(pk=week.pk).first()
            if same is not None:
                raise ValidationFailed(
                    _("Week %(n)s is already on %(date)s: move the match to that week.")
                    % {"n": same.number, "date": date_format(date, "DATE_FORMAT")},
                    field="date",
                )
        before = {"date": week.date, "venue": week.venue}
        after = {"date": date, "venue": venue}
        if before == after:
            return week
        week.date, week.venue = date, venue
        week.save(update_fields=["date", "venue"])

        def said(values: dict[str, Any]) -> dict[str, Any]:
            when, where = values["date"], values["venue"]
            return {
                "date": when.isoformat() if when else None,
                "venue": where.name if where else None,
            }

        audit_log(
            actor=user,
            action=AuditAction.WEEK_UPDATE,
            obj=week,
            before=said(before),
            after=said(after),
        )
    return week


def venue_create(*, user: Actor, name: str, address: str = "") -> Venue:
    """A venue, or the one already called ``name`` (a venue is known by its name)."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    name = (name or "").strip()
    if not name:
        raise ValidationFailed(_("A venue needs a name."), field="venue")
    if len(name) > 120:
        raise ValidationFailed(_("A venue's name has at most 120 characters."), field="venue")
    with transaction.atomic():
        venue = Venue.objects.filter(name__iexact=name).first()
        if venue is None:
            venue = Venue.objects.create(name=name, address=(address or "").strip()[:250])
            audit_log(actor=user, action=AuditAction.VENUE_CREATE, obj=venue, after={"name": name})
    return venue


def venue_update(*, venue: Venue, user: Actor, name: str, address: str = "") -> Venue:
    """A venue's name and address changed, audited. The name stays unique (a venue is known by
    it: the weeks and the scoreboard show it)."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    name = (name or "").strip()
    address = (address or "").strip()
    if not name:
        raise ValidationFailed(_("A venue needs a name."), field="name")
    if len(name) > 120:
        raise ValidationFailed(_("A venue's name has at most 120 characters."), field="name")
    if len(address) > 250:
        raise ValidationFailed(_("A venue's address has at most 250 characters."), field="address")
    if "\x00" in name + address:
        raise ValidationFailed(_("A venue's name or address holds a NUL character."), field="name")
    with transaction.atomic():
        row = Venue.objects.select_for_update().get(pk=venue.pk)
        if Venue.objects.filter(name__iexact=name).exclude(pk=row.pk).exists():
            raise ValidationFailed(
                _("Another venue is already called %(name)s.") % {"name": name}, field="name"
            )
        before = {"name": row.name, "address": row.address}
        after = {"name": name, "address": address}
        if before == after:
            return row
        row.name, row.address = name, address
        row.save(update_fields=["name", "address"])
        audit_log(actor=user, action=AuditAction.VENUE_UPDATE, obj=row, before=before, after=after)
    return row


def team_create(
    *,
    season: Season,
    user: Actor,
    name: str,
    players: Sequence[Player],
    captain: Player | None = None,
) -> Team:
    """A team for ``season``: two players in doubles (one in singles), one of them captain."""
    refuse_unless(user, Action.MANAGE_LEAGUE)

    name, captain = team_check(season=season, name=name, players=players, captain=captain)
    with transaction.atomic():
        if season.teams.filter(name=name).exists():
            raise ValidationFailed(
                _("There is already a team called %(name)s this season.") % {"name": name},
                field="name",
            )
        _refuse_players_taken(season, players)
        team = Team.objects.create(season=season, name=name, captain=captain)
        team.players.set(players)
        audit_log(
            actor=user,
            action=AuditAction.TEAM_CREATE,
            obj=team,
            after={"name": name, "players": [p.name for p in players], "captain": captain.name},
        )
    return team


def team_check(
    *, season: Season, name: str, players: Sequence[Player], captain: Player | None = None
) -> tuple[str, Player]:
    """The checks of a new team that need no database (what ``team_create`` and a bulk writer
    share): its name, its number of different players, its captain. Returns the clean name
    and the captain. ``players`` may be unsaved (a player is known by its unique name)."""
    variant = season.game_variant
    size = variant.players // variant.sides
    name = (name or "").strip()
    if not name:
        raise ValidationFailed(_("A team needs a name."), field="name")
    if len(players) != size or len({p.name for p in players}) != size:
        raise ValidationFailed(
            _("A team in this league has %(n)s different players.") % {"n": size},
            field="players",
        )
    captain = captain or players[0]
    if captain.name not in {p.name for p in players}:
        raise ValidationFailed(_("The captain must play for the team."), field="captain")
    return name, captain


def _refuse_players_taken(
    season: Season, players: Sequence[Player], *, but: Team | None = None
) -> None:
    """A player is on one team a season: refuse naming the player and the team they are on."""
    others = Team.objects.filter(season=season, players__in=players)
    if but is not None:
        others = others.exclude(pk=but.pk)
    refuse_players_taken(players, dict(others.values_list("players__name", "name")))


def refuse_players_taken(players: Sequence[Player], on: Mapping[str, str]) -> None:
    """Refuse the first of ``players`` already on a team this season (``on``: player name ->
    team name), naming the player and the team."""
    for player in players:
        if player.name in on:
            raise ValidationFailed(
                _("%(name)s already plays for %(team)s this season: a player is on one team.")
                % {"name": player.name, "team": on[player.name]},
                field="players",
            )


def teams_add(
    *, season: Season, user: Actor, rows: Sequence[tuple[int, str, Sequence[str]]]
) -> list[Team]:
    """Several teams at once from ``(line, team name, player names)``, the first player the
    captain: all or none. Every line at fault is named with its problem (an unknown player, a
    player already on a team, a name taken...), so the list is fixed and sent again."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    if not rows:
        raise ValidationFailed(
            _("List at least one team: its name, then its players."), field="teams"
        )
    by_name = {p.name.casefold(): p for p in Player.objects.all()}
    problems: list[str] = []
    made: list[Team] = []
    with transaction.atomic():
        for line, name, names in rows:
            where = _("Line %(n)s") % {"n": line}
            players = []
            for player_name in names:
                player = by_name.get(" ".join(player_name.split()).casefold())
                if player is None:
                    problems.append(
                        _(
                            "%(where)s: there is no player called “%(name)s”. Add them on the "
                            "players page first, or check the spelling."
                        )
                        % {"where": where, "name": player_name}
                    )
                    break
                players.append(player)
            else:
                try:
                    made.append(team_create(season=season, user=user, name=name, players=players))
                except ValidationFailed as exc:
                    problems.append(f"{where}: {exc.message}")
        if problems:
            summary = ngettext(
                "No team was added: %(n)s problem to fix first.",
                "No team was added: %(n)s problems to fix first.",
                len(problems),
            ) % {"n": len(problems)}
            raise ValidationFailed(
                " ".join([summary, *problems]),
                field="teams",
                summary=summary,
                problems=problems,
            )
    return made


def _team_played(team: Team) -> bool:
    return Game.objects.filter(Q(match__home=team) | Q(match__away=team)).exists()


def team_update(
    *,
    team: Team,
    user: Actor,
    name: str | None = None,
    players: Sequence[Player] | None = None,
    captain: Player | None = None,
) -> Team:
    """Rename a team, change its captain, or (before it has played) its players. A team that
    has played keeps its players: its results are theirs. Every change is audited; a rename
    refreshes the pages that show the name."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    with transaction.atomic():
        team = Team.objects.select_for_update().get(pk=team.pk)
        before = {
            "name": team.name,
            "players": sorted(team.players.values_list("name", flat=True)),
            "captain": team.captain.name,
        }
        current = list(team.players.all())
        if players is not None and {p.pk for p in players} != {p.pk for p in current}:
            if _team_played(team):
                raise ValidationFailed(
                    _(
                        "%(team)s has played: its players cannot change. Make a new team for "
                        "the new pair."
                    )
                    % {"team": team.name},
                    field="players",
                )
            variant = team.season.game_variant
            size = variant.players // variant.sides
            if len(players) != size or len({p.pk for p in players}) != size:
                raise ValidationFailed(
                    _("A team in this league has %(n)s different players.") % {"n": size},
                    field="players",
                )
            _refuse_players_taken(team.season, players, but=team)
            team.players.set(players)
            current = list(players)
        if captain is not None and captain.pk != team.captain_id:
            if captain.pk not in {p.pk for p in current}:
                raise ValidationFailed(_("The captain must play for the team."), field="captain")
            team.captain = captain
        elif team.captain_id not in {p.pk for p in current}:
            team.captain = current[0]
        renamed = name is not None and name.strip() != team.name
        if renamed:
            new_name = (name or "").strip()
            if not new_name:
                raise ValidationFailed(_("A team needs a name."), field="name")
            if team.season.teams.filter(name=new_name).exclude(pk=team.pk).exists():
                raise ValidationFailed(
                    _("There is already a team called %(name)s this season.") % {"name": new_name},
                    field="name",
                )
            team.name = new_name
        team.save()
        after = {
            "name": team.name,
            "players": sorted(p.name for p in current),
            "captain": team.captain.name,
        }
        if after != before:
            audit_log(
                actor=user, action=AuditAction.TEAM_UPDATE, obj=team, before=before, after=after
            )
            if renamed:
                from league.services.results import results_changed

                results_changed(season_id=team.season_id)  # the standings show the name
    return team


def match_create(*, week: Week, user: Actor, home: Team, away: Team, table: int = 1) -> Match:
    """A match added to a week by hand (a make-up night, say)."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    if home.pk == away.pk:
        raise ValidationFailed(_("A team cannot play itself."), field="away")
    if home.season_id != week.season_id or away.season_id != week.season_id:
        raise ValidationFailed(_("Both teams must play in this season."), field="home")
    if type(table) is not int or not 1 <= table <= 999:
        raise ValidationFailed(_("Tables are numbered from 1."), field="table")
    with transaction.atomic():
        match = Match.objects.create(week=week, home=home, away=away, table=table)
        audit_log(
            actor=user,
            action=AuditAction.MATCH_CREATE,
            obj=match,
            after={"week": week.number, "home": home.name, "away": away.name, "table": table},
        )
    return match


def match_update(
    *,
    match: Match,
    user: Actor,
    week: Week | None = None,
    home: Team | None = None,
    away: Team | None = None,
    table: int | None = None,
    reason: str = "",
) -> Match:
    """Change a scheduled match. Before a game is played anything may change; after, the
    teams stay (the results are theirs), and moving it to another night is a postponement,
    done with a reason on record."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    with transaction.atomic():
        match = (
            Match.objects.select_for_update()
            .select_related("week", "home", "away")
            .get(pk=match.pk)
        )
        played = match.games.exists()
        before = {
            "week": match.week.number,
            "home": match.home.name,
            "away": match.away.name,
            "table": match.table,
        }
        new_home = home or match.home
        new_away = away or match.away
        if (new_home.pk, new_away.pk) != (match.home_id, match.away_id):
            if played:
                raise ValidationFailed(
                    _(
                        "This match has games: its teams cannot change (home and away "
                        "included). Void its games first if the wrong teams sat down."
                    ),
                    field="home",
                )
            if new_home.pk == new_away.pk:
                raise ValidationFailed(_("A team cannot play itself."), field="away")
            if (
                new_home.season_id != match.week.season_id
                or new_away.season_id != match.week.season_id
            ):
                raise ValidationFailed(_("Both teams must play in this season."), field="home")
            match.home, match.away = new_home, new_away
        if week is not None and week.pk != match.week_id:
            if week.season_id != match.week.season_id:
                raise ValidationFailed(_("A match stays in its season."), field="week")
            if played and not reason.strip():
                raise ValidationFailed(
                    _("Say why a match with games moves to another night."), field="reason"
                )
            match.week = week
        if table is not None:
            if type(table) is not int or not 1 <= table <= 999:
                raise ValidationFailed(_("Tables are numbered from 1."), field="table")
            match.table = table
        match.save()
        after = {
            "week": match.week.number,
            "home": match.home.name,
            "away": match.away.name,
            "table": match.table,
        }
        if after != before:
            audit_log(
                actor=user,
                action=AuditAction.MATCH_UPDATE,
                obj=match,
                before=before,
                after=after,
                reason=reason,
            )
            from league.services.results import results_changed

            results_changed(season_id=match.week.season_id)
    return match


def delete_unplayed(*, obj: Season | Team | Week | Match, user: Actor) -> None:
    """Undo set-up: delete a season, team, week or match that no game was ever started in
    (voided games included). Anything played is voided or corrected, never deleted."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    games = Game.objects.all()
    if isinstance(obj, Season):
        games = games.filter(match__week__season=obj)
    elif isinstance(obj, Team):
        games = games.filter(Q(match__home=obj) | Q(match__away=obj))
    elif isinstance(obj, Week):
        games = games.filter(match__week=obj)
    else:
        games = games.filter(match=obj)
    if games.exists():
        raise ValidationFailed(
            _(
                "%(what)s has games, so it stays on record: void or correct games instead of "
                "deleting."
            )
            % {"what": str(obj)}
        )
    with transaction.atomic():
        audit_log(actor=user, action=AuditAction.DELETE, obj=obj, before={"what": str(obj)})
        if isinstance(obj, Season):
            Match.objects.filter(week__season=obj).delete()
            Week.objects.filter(season=obj).delete()
            for team in obj.teams.all():
                team.players.clear()
            obj.teams.all().delete()
            AuditEntry.objects.filter(season=obj).update(season=None)
            obj.delete()
        elif isinstance(obj, Team):
            Match.objects.filter(Q(home=obj) | Q(away=obj)).delete()
            obj.players.clear()
            obj.delete()
        elif isinstance(obj, Week):
            obj.matches.all().delete()
            obj.delete()
        else:
            obj.delete()


def match_move(
    *,
    match: Match,
    user: Actor,
    week: Week | None = None,
    date: dt.date | None = None,
    reason: str = "",
) -> Match:
    """Move a match to another night of its season: ``week``, or a new night on ``date`` (a
    make-up night, added to the schedule). A match with games moves only with a reason (a
    postponement, on record). All or nothing."""
    if week is None and date is None:
        raise ValidationFailed(
            _("Choose the night the match moves to, or give a new date."), field="week"
        )
    with transaction.atomic():
        if week is None:
            assert date is not None
            week = week_create(
                season=match.week.season, user=user, date=date, venue=match.week.venue
            )
        return match_update(match=match, user=user, week=week, reason=reason)


# --- A season's life ---------------------------------------------------------------------------
#
#   draft --publish--> published --(its first night comes)--> running --finish--> finished
#     ^                   |  (back to draft while no game is played)      |  (the last match or
#     +-------------------+                                                |   the playoff final,
#                                          finished --reopen--> published  |   or the organiser
#                                                                          |   with a reason)
#
# "running" is never stored: ``Season.state_on(today)`` derives it from the dates. Each
# transition below locks the season, checks the role and the state, changes the one field and
# records it in the audit trail, whichever door it came through (/organise/, the API, the admin).

REASON_MAX = 500


def _locked(season: Season) -> Season:
    return Season.objects.select_for_update().select_related("league").get(pk=season.pk)


def _season_has_games(season: Season) -> bool:
    return Game.objects.filter(match__week__season=season).exists()


def _manager_only(user: Actor, text: str) -> None:
    """The kernel's one refusal for a season's organiser (``text`` names the move for
    readers of the code; the sentence at every door is the refusal's)."""
    refuse_unless(user, Action.MANAGE_LEAGUE)


def _reason(reason: str, *, needed: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed(needed, field="reason")
    if len(reason) > REASON_MAX:
        raise ValidationFailed(
            _("Keep the reason under %(n)s characters.") % {"n": REASON_MAX}, field="reason"
        )
    return reason


def season_publish(*, season: Season, user: Actor) -> Season:
    """Publish a draft: the season shows as the league's next season (its schedule public,
    its players can be invited) and runs from its first night. Refused without teams and a
    schedule: a published season is one players can plan their nights around.

    Once published, the invitations held while it was a draft go out, each once
    (``invitations_release``); a mail server that does not answer leaves them held, to send
    from the players page, and the season published."""
    _manager_only(user, _("Only a league admin can publish a season."))
    with transaction.atomic():
        season = _locked(season)
        if season.state != SeasonState.DRAFT:
            raise Conflict(
                _("%(season)s is already published.") % {"season": season.name}
                if season.state == SeasonState.PUBLISHED
                else _("%(season)s is finished: reopen it instead.") % {"season": season.name},
                field="state",
            )
        if season.teams.count() < 2:
            raise ValidationFailed(
                _("%(season)s has no teams yet: add the teams and make the schedule first.")
                % {"season": season.name},
                field="teams",
            )
        if not Match.objects.filter(week__season=season, week__is_playoff=False).exists():
            raise ValidationFailed(
                _("%(season)s has no schedule yet: make the schedule before publishing it.")
                % {"season": season.name},
                field="schedule",
            )
        season.state = SeasonState.PUBLISHED
        season.save(update_fields=["state"])
        audit_log(
            actor=user,
            action=AuditAction.SEASON_PUBLISH,
            obj=season,
            before={"state": SeasonState.DRAFT.value},
            after={"state": SeasonState.PUBLISHED.value},
        )
    try:
        invitations_release(user=user, season=season)
    except DomainError:
        log.warning("held invitations of season %s not sent", season.pk, exc_info=True)
    return season


def season_unpublish(*, season: Season, user: Actor) -> Season:
    """Take a published season back to draft (hidden from everyone but the organisers), as
    long as none of its games has been started."""
    _manager_only(user, _("Only a league admin can take a season back to draft."))
    with transaction.atomic():
        season = _locked(season)
        if season.state != SeasonState.PUBLISHED:
            raise Conflict(
                _("Only a published season can go back to draft."),
                field="state",
            )
        if _season_has_games(season):
            raise Conflict(
                _("%(season)s has games on record, so it stays published: players have seen it.")
                % {"season": season.name},
                field="state",
            )
        season.state = SeasonState.DRAFT
        season.save(update_fields=["state"])
        audit_log(
            actor=user,
            action=AuditAction.SEASON_UNPUBLISH,
            obj=season,
            before={"state": SeasonState.PUBLISHED.value},
            after={"state": SeasonState.DRAFT.value},
        )
    return season


def _organiser_name(user: Actor) -> str:
    full = getattr(user, "get_full_name", lambda: "")()
    return full or getattr(user, "get_username", lambda: "")() or _("the organiser")


def season_finish(*, season: Season, user: Actor, reason: str, confirm: bool = False) -> Season:
    """Close a published season early, with the reason on record (the bar closed, the league
    stopped): it leaves the home page and its league lists it as finished. Games under way stay
    as they are; nothing is deleted.

    While a dispute is open or a game is not yet confirmed, the results are not final: the
    season is not finished unless the organiser ``confirm``s it, in their name (the record
    says what was left open), and the roll of honour says its champion is provisional."""
    _manager_only(user, _("Only a league admin can finish a season."))
    reason = _reason(reason, needed=_("Say why the season is finished early."))
    with transaction.atomic():
        season = _locked(season)
        if season.state != SeasonState.PUBLISHED:
            raise Conflict(
                _("%(season)s is already finished.") % {"season": season.name}
                if season.state == SeasonState.FINISHED
                else _("%(season)s is a draft: delete it instead of finishing it.")
                % {"season": season.name},
                field="state",
            )
        left = season_unsettled(season)
        if left:
            said = _left_said(left)
            if not confirm:
                raise Conflict(
                    _(
                        "%(season)s still has %(left)s: its champion would only be provisional. "
                        "Settle them first, or confirm that you, %(organiser)s, finish it as it "
                        "stands."
                    )
                    % {"season": season.name, "left": said, "organiser": _organiser_name(user)},
                    field="confirm",
                )
            reason = _("%(reason)s (finished by %(organiser)s with %(left)s)") % {
                "reason": reason,
                "organiser": _organiser_name(user),
                "left": said,
            }
        return _finish(season, user=user, reason=reason)


def _left_said(left: Unsettled) -> str:
    parts = []
    if left.disputes:
        parts.append(
            ngettext("%(n)s open dispute", "%(n)s open disputes", left.disputes)
            % {"n": left.disputes}
        )
    if left.games:
        parts.append(
            ngettext("%(n)s game not yet confirmed", "%(n)s games not yet confirmed", left.games)
            % {"n": left.games}
        )
    return _(" and ").join(parts)


def _finish(season: Season, *, user: Actor, reason: str) -> Season:
    season.state = SeasonState.FINISHED
    season.finished_reason = reason
    season.finished_at = timezone.now()
    season.save(update_fields=["state", "finished_reason", "finished_at"])
    audit_log(
        actor=user,
        action=AuditAction.SEASON_FINISH,
        obj=season,
        before={"state": SeasonState.PUBLISHED.value},
        after={"state": SeasonState.FINISHED.value},
        reason=reason,
    )
    return season


def season_reopen(*, season: Season, user: Actor, reason: str) -> Season:
    """Reopen a finished season (finished by mistake, or a result still to play), with the
    reason on record: it is published again, running if its first night has come."""
    _manager_only(user, _("Only a league admin can reopen a season."))
    reason = _reason(reason, needed=_("Say why the season is reopened."))
    with transaction.atomic():
        season = _locked(season)
        if season.state != SeasonState.FINISHED:
            raise Conflict(
                _("%(season)s is not finished.") % {"season": season.name}, field="state"
            )
        season.state = SeasonState.PUBLISHED
        season.finished_reason = ""
        season.finished_at = None
        season.save(update_fields=["state", "finished_reason", "finished_at"])
        audit_log(
            actor=user,
            action=AuditAction.SEASON_REOPEN,
            obj=season,
            before={"state": SeasonState.FINISHED.value},
            after={"state": SeasonState.PUBLISHED.value},
            reason=reason,
        )
    return season


def season_is_over(season: Season) -> bool:
    """Every match played and confirmed: each regular match has all its games confirmed and,
    when the season has playoffs, the final is won. A season with playoffs still to draw is
    not over (the organiser draws them)."""
    # Two small queries, whatever the season's size: this runs after every recompute.
    regular = Match.objects.filter(week__season=season, week__is_playoff=False)
    if not regular.exists():
        return False
    confirmed = Count("games", filter=Q(games__status=GameStatus.CONFIRMED))
    if regular.annotate(confirmed=confirmed).filter(confirmed__lt=season.games_per_match).exists():
        return False
    if season.playoff_teams < 2:
        return True
    if not season.playoff_seeding:
        return False
    return bool(playoff_bracket(season).get("champion"))


def season_finish_if_over(*, season_id: int) -> bool:
    """After a result changed (the recompute task): finish a published season whose last match
    or playoff final is over. Safe to run twice. True when it finished the season now."""
    season = Season.objects.filter(pk=season_id, state=SeasonState.PUBLISHED).first()
    if season is None or not season_is_over(season):
        return False
    with transaction.atomic():
        season = _locked(season)
        if season.state != SeasonState.PUBLISHED:
            return False
        # No reason typed: the pages say "after its last match" for a season finished so.
        _finish(season, user=Trusted(None, "the season's last match is over"), reason="")
    return True
