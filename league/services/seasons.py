"""Seasons, teams and the schedule."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from league.errors import NotAllowed, ValidationFailed
from league.models import AuditEntry, Game, Match, Player, Season, Team, Venue, Week
from league.permissions import Action, can
from league.services.audit import audit_log


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


def schedule_create(
    *,
    season: Season,
    user: Any,
    start_date: dt.date | None = None,
    cycles: int = 1,
    venue: Venue | None = None,
    days_between: int = 7,
) -> list[Week]:
    """Weeks and matches for a round robin of the season's teams (``cycles`` times around).

    In the second cycle every pairing swaps home and away. Refused if the season already has
    a schedule.
    """
    if not can(user, Action.MANAGE_LEAGUE):
        raise NotAllowed(_("Only a league admin can make the schedule."))
    teams = list(season.teams.order_by("name"))
    if len(teams) < 2:
        raise ValidationFailed(_("A schedule needs at least two teams."))
    if cycles < 1:
        raise ValidationFailed(_("Play at least one round."), field="cycles")
    with transaction.atomic():
        if season.weeks.exists():
            raise ValidationFailed(_("This season already has a schedule."))
        weeks: list[Week] = []
        number = 0
        for cycle in range(cycles):
            for pairs in round_robin(len(teams)):
                number += 1
                date = (
                    start_date + dt.timedelta(days=days_between * (number - 1))
                    if start_date
                    else None
                )
                week = Week.objects.create(season=season, number=number, date=date, venue=venue)
                for table, (h, a) in enumerate(pairs, start=1):
                    home, away = (teams[h], teams[a]) if cycle % 2 == 0 else (teams[a], teams[h])
                    Match.objects.create(week=week, home=home, away=away, table=table)
                weeks.append(week)
        audit_log(
            actor=user,
            action="schedule_create",
            obj=season,
            after={"weeks": number, "teams": len(teams), "cycles": cycles},
        )
    return weeks


def team_create(
    *,
    season: Season,
    user: Any,
    name: str,
    players: Sequence[Player],
    captain: Player | None = None,
) -> Team:
    """A team for ``season``: two players in doubles (one in singles), one of them captain."""
    if not can(user, Action.MANAGE_LEAGUE):
        raise NotAllowed(_("Only a league admin can change teams."))

    variant = season.game_variant
    size = variant.players // variant.sides
    name = (name or "").strip()
    if not name:
        raise ValidationFailed(_("A team needs a name."), field="name")
    if len(players) != size or len({p.pk for p in players}) != size:
        raise ValidationFailed(
            _("A team in this league has %(n)s different players.") % {"n": size},
            field="players",
        )
    captain = captain or players[0]
    if captain.pk not in {p.pk for p in players}:
        raise ValidationFailed(_("The captain must play for the team."), field="captain")
    with transaction.atomic():
        if season.teams.filter(name=name).exists():
            raise ValidationFailed(
                _("There is already a team called %(name)s this season.") % {"name": name},
                field="name",
            )
        taken = Team.objects.filter(season=season, players__in=players).values_list(
            "players__name", flat=True
        )
        clash = [p.name for p in players if p.name in set(taken)]
        if clash:
            raise ValidationFailed(
                _("%(name)s already plays for another team this season.") % {"name": clash[0]},
                field="players",
            )
        team = Team.objects.create(season=season, name=name, captain=captain)
        team.players.set(players)
        audit_log(
            actor=user,
            action="team_create",
            obj=team,
            after={"name": name, "players": [p.name for p in players], "captain": captain.name},
        )
    return team


def _team_played(team: Team) -> bool:
    return Game.objects.filter(Q(match__home=team) | Q(match__away=team)).exists()


def team_update(
    *,
    team: Team,
    user: Any,
    name: str | None = None,
    players: Sequence[Player] | None = None,
    captain: Player | None = None,
) -> Team:
    """Rename a team, change its captain, or (before it has played) its players. A team that
    has played keeps its players: its results are theirs. Every change is audited; a rename
    refreshes the pages that show the name."""
    if not can(user, Action.MANAGE_LEAGUE):
        raise NotAllowed(_("Only a league admin can change teams."))
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
            clash = (
                Team.objects.filter(season=team.season, players__in=players)
                .exclude(pk=team.pk)
                .values_list("players__name", flat=True)
            )
            taken = [p.name for p in players if p.name in set(clash)]
            if taken:
                raise ValidationFailed(
                    _("%(name)s already plays for another team this season.") % {"name": taken[0]},
                    field="players",
                )
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
            audit_log(actor=user, action="team_update", obj=team, before=before, after=after)
            if renamed:
                from league.services.results import results_changed

                results_changed(team.season_id)  # the standings show the name
    return team


def match_create(*, week: Week, user: Any, home: Team, away: Team, table: int = 1) -> Match:
    """A match added to a week by hand (a make-up night, say)."""
    if not can(user, Action.MANAGE_LEAGUE):
        raise NotAllowed(_("Only a league admin can change the schedule."))
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
            action="match_create",
            obj=match,
            after={"week": week.number, "home": home.name, "away": away.name, "table": table},
        )
    return match


def match_update(
    *,
    match: Match,
    user: Any,
    week: Week | None = None,
    home: Team | None = None,
    away: Team | None = None,
    table: int | None = None,
    reason: str = "",
) -> Match:
    """Change a scheduled match. Before a game is played anything may change; after, the
    teams stay (the results are theirs), and moving it to another night is a postponement,
    done with a reason on record."""
    if not can(user, Action.MANAGE_LEAGUE):
        raise NotAllowed(_("Only a league admin can change the schedule."))
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
                action="match_update",
                obj=match,
                before=before,
                after=after,
                reason=reason,
            )
            from league.services.results import results_changed

            results_changed(match.week.season_id)
    return match


def delete_unplayed(*, obj: Season | Team | Week | Match, user: Any) -> None:
    """Undo set-up: delete a season, team, week or match that no game was ever started in
    (voided games included). Anything played is voided or corrected, never deleted."""
    if not can(user, Action.MANAGE_LEAGUE):
        raise NotAllowed(_("Only a league admin can delete set-up."))
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
        audit_log(actor=user, action="delete", obj=obj, before={"what": str(obj)})
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
