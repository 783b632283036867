"""The admin panel for league admins and judges. Results are read here and changed only through
the services (actions below), so the admin is just another door to the same rules."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from league import models
from league.errors import DomainError
from league.permissions import Action, can
from league.services.games import game_void


@admin.register(models.League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "variant", "target", "games_per_match", "skunk_margin",
                    "requires_confirmation"]


@admin.register(models.Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "playoff_teams", "is_current", "results_version"]
    list_filter = ["league", "is_current"]


@admin.register(models.Venue)
class VenueAdmin(admin.ModelAdmin):
    list_display = ["name", "address"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user"]
    search_fields = ["name"]


@admin.register(models.Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "captain"]
    list_filter = ["season"]
    filter_horizontal = ["players"]


@admin.register(models.Week)
class WeekAdmin(admin.ModelAdmin):
    list_display = ["number", "season", "date", "venue", "is_playoff"]
    list_filter = ["season"]


@admin.register(models.Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "week", "table"]
    list_filter = ["week__season"]
    list_select_related = ["week__season", "home", "away"]


class ReadOnlyMixin:
    """Results are never edited in place: corrections and voids go through the services."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class DealInline(ReadOnlyMixin, admin.TabularInline):
    model = models.Deal
    fields = ["number", "version", "is_current", "dealer", "starter", "pegging", "shows", "crib",
              "home_after", "away_after", "entered_by", "reason", "created_at"]
    readonly_fields = fields
    extra = 0
    ordering = ["number", "version"]


@admin.register(models.Game)
class GameAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["__str__", "status", "home_score", "away_score", "winner", "skunk_level"]
    list_filter = ["status", "match__week__season"]
    list_select_related = ["match__week__season", "match__home", "match__away", "winner"]
    inlines = [DealInline]
    actions = ["void_games"]

    @admin.action(description=_("Void the selected games"))
    def void_games(self, request: HttpRequest, queryset: QuerySet[models.Game]) -> None:
        for game in queryset:
            try:
                game_void(game=game, user=request.user, reason="Voided in the admin panel")
            except DomainError as exc:
                self.message_user(request, f"{game}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{game}: voided.", messages.SUCCESS)

    def has_void_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.VOID_GAME)

    void_games.allowed_permissions = ("void",)  # type: ignore[attr-defined]


@admin.register(models.AuditEntry)
class AuditEntryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["at", "actor", "action", "object_type", "object_id", "reason"]
    list_filter = ["action"]
    date_hierarchy = "at"
