"""Seasons, teams and the schedule."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from league.errors import NotAllowed, ValidationFailed
from league.models import Match, Player, Season, Team, Venue, Week
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
    check_permission: bool = True,
) -> list[Week]:
    """Weeks and matches for a round robin of the season's teams (``cycles`` times around).

    In the second cycle every pairing swaps home and away. Refused if the season already has
    a schedule.
    """
    if check_permission and not can(user, Action.MANAGE_LEAGUE):
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
            season=season,
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
    check_permission: bool = True,
) -> Team:
    """A team for ``season``: two players in doubles (one in singles), one of them captain."""
    if check_permission and not can(user, Action.MANAGE_LEAGUE):
        raise NotAllowed(_("Only a league admin can change teams."))
    from scoring.variants import get_variant

    variant = get_variant(season.league.variant)
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
            season=season,
            after={"name": name, "players": [p.name for p in players], "captain": captain.name},
        )
    return team
