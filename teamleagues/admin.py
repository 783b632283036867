"""The team leagues in the admin, for the site's league admins and the leagues' organisers:
everything read here; each change is an action calling a service (close a season and promote
and relegate, make the play-offs, settle a leg the captains disagree on, a cup's next round)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.kernel.errors import DomainError
from league.kernel.permissions import is_league_admin
from teamleagues import cups, services
from teamleagues.models import (
    Cup,
    Fixture,
    FormatBoard,
    Leg,
    LegState,
    MatchFormat,
    Member,
    Team,
    TeamLeague,
    TeamSeason,
)


def next_season_name(name: str) -> str:
    """The name after ``name``: its years moved on by one ("2026-27" -> "2027-28", "2026" ->
    "2027"), else "(next)" added.

    >>> next_season_name("2026-27"), next_season_name("2026"), next_season_name("Winter")
    ('2027-28', '2027', 'Winter (next)')
    """
    parts = name.split("-")
    if all(p.isascii() and p.isdigit() for p in parts) and len(parts) <= 2:
        return "-".join(str(int(p) + 1).zfill(len(p))[-len(p) :] for p in parts)
    return f"{name} (next)"


class _Organisers(admin.ModelAdmin):
    def has_module_permission(self, request: HttpRequest) -> bool:
        """Asked once a request (the admin's index and sidebar ask every ModelAdmin)."""
        cached = getattr(request, "_team_league_organiser", None)
        if cached is None:
            user = request.user
            cached = bool(
                user.is_authenticated
                and (is_league_admin(user) or user.team_leagues_organised.exists())  # type: ignore[union-attr]
            )
            request._team_league_organiser = cached  # type: ignore[attr-defined]
        return cached

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class _ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class FormatBoardInline(_ReadOnlyInline):
    model = FormatBoard


@admin.register(MatchFormat)
class MatchFormatAdmin(_Organisers):
    list_display = ("league", "team_size", "legs_per_board", "best_of", "decided_by")
    inlines = [FormatBoardInline]


@admin.register(TeamLeague)
class TeamLeagueAdmin(_Organisers):
    list_display = ("name",)


class MemberInline(_ReadOnlyInline):
    model = Member


@admin.register(Team)
class TeamAdmin(_Organisers):
    list_display = ("name", "league", "venue", "captain")
    list_filter = ("league",)
    inlines = [MemberInline]


def _each(request: HttpRequest, objs: QuerySet[Any], call: Any, done: str) -> int:
    count = 0
    for obj in objs:
        try:
            call(obj)
            count += 1
        except DomainError as exc:
            messages.error(request, f"{obj}: {exc.message}")
    if count:
        messages.success(request, done % {"n": count})
    return count


@admin.register(TeamSeason)
class TeamSeasonAdmin(_Organisers):
    list_display = ("name", "league", "state", "promoted", "relegated", "playoffs")
    list_filter = ("league", "state")
    actions = ["close_and_move", "make_playoffs"]

    @admin.action(description=gettext_lazy("Close the season, promote and relegate"))
    def close_and_move(self, request: HttpRequest, queryset: QuerySet[TeamSeason]) -> None:
        _each(
            request,
            queryset,
            lambda s: services.season_close(
                user=request.user, season=s, next_name=next_season_name(s.name)
            ),
            _("Seasons closed: %(n)s."),
        )

    @admin.action(description=gettext_lazy("Make the play-offs"))
    def make_playoffs(self, request: HttpRequest, queryset: QuerySet[TeamSeason]) -> None:
        _each(
            request,
            queryset,
            lambda s: services.playoffs_make(user=request.user, season=s),
            _("Play-offs made: %(n)s."),
        )


@admin.register(Fixture)
class FixtureAdmin(_Organisers):
    list_display = ("__str__", "season", "division", "round", "date")
    list_filter = ("season",)


@admin.register(Leg)
class LegAdmin(_Organisers):
    list_display = (
        "board",
        "number",
        "state",
        "home_winner",
        "home_loser_score",
        "away_winner",
        "away_loser_score",
    )
    list_filter = ("state",)
    actions = ["settle_as_home", "settle_as_away"]

    def _settle(self, request: HttpRequest, queryset: QuerySet[Leg], side: str) -> None:
        def settle(leg: Leg) -> None:
            winner = getattr(leg, f"{side}_winner")
            score = getattr(leg, f"{side}_loser_score")
            if leg.state != LegState.DISAGREE or not winner or score is None:
                raise DomainError(_("Only a leg the captains disagree on is settled here."))
            services.leg_settle(
                user=request.user,
                leg=leg,
                winner=winner,
                loser_score=score,
                reason=_("settled in the admin"),
            )

        _each(request, queryset, settle, _("Legs settled: %(n)s."))

    @admin.action(description=gettext_lazy("Settle as the home captain entered it"))
    def settle_as_home(self, request: HttpRequest, queryset: QuerySet[Leg]) -> None:
        self._settle(request, queryset, "home")

    @admin.action(description=gettext_lazy("Settle as the away captain entered it"))
    def settle_as_away(self, request: HttpRequest, queryset: QuerySet[Leg]) -> None:
        self._settle(request, queryset, "away")


@admin.register(Cup)
class CupAdmin(_Organisers):
    list_display = ("name", "season", "kind", "seeded")
    actions = ["next_round"]

    @admin.action(description=gettext_lazy("Make the next round (or the plate's first)"))
    def next_round(self, request: HttpRequest, queryset: QuerySet[Cup]) -> None:
        _each(
            request,
            queryset,
            lambda c: cups.cup_next_round(user=request.user, cup=c),
            _("Rounds made: %(n)s."),
        )
