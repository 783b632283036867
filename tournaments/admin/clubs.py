"""Clubs, their members and club seasons."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy

from league.kernel.errors import DomainError
from league.kernel.permissions import Action, can
from tournaments import services
from tournaments.checks import clubs_directed_by
from tournaments.models import (
    Club,
    ClubMember,
    ClubSeason,
)


class _ClubsOnly(admin.ModelAdmin):
    def has_module_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.MANAGE_CLUBS)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self.has_module_permission(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


CLUB_FIELDS = ("name", "venue", "guest_nights", "send_night_story")


@admin.register(Club)
class ClubAdmin(_ClubsOnly):
    list_display = CLUB_FIELDS
    fields = CLUB_FIELDS

    def get_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        """A new club starts without sending its nights' story: turned on once it exists."""
        return CLUB_FIELDS if obj is not None else CLUB_FIELDS[:3]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can(request.user, Action.MANAGE_CLUBS, obj)

    def save_model(
        self, request: HttpRequest, obj: Club, form: forms.ModelForm, change: bool
    ) -> None:
        if change:
            try:
                services.club_update(
                    user=request.user,
                    club=Club.objects.get(pk=obj.pk),
                    changes={k: form.cleaned_data[k] for k in CLUB_FIELDS},
                )
            except DomainError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            return
        try:
            created = services.club_create(
                user=request.user,
                name=form.cleaned_data["name"],
                venue=form.cleaned_data["venue"],
                guest_nights=form.cleaned_data["guest_nights"],
            )
            obj.pk = created.pk
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)


@admin.register(ClubMember)
class ClubMemberAdmin(_ClubsOnly):
    """A player's ACC number and standing at a club, through ``club_member_set``."""

    list_display = ("player", "club", "acc_number", "status")
    list_filter = ("club", "status")
    search_fields = ("player__name", "acc_number")
    fields = ("club", "player", "acc_number", "status")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        """A director lists the members (and ACC numbers) of the clubs they direct only."""
        rows = super().get_queryset(request)
        clubs = clubs_directed_by(request.user)
        return rows if clubs is None else rows.filter(club_id__in=clubs)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can(request.user, Action.MANAGE_CLUBS, getattr(obj, "club", None))

    def save_model(
        self, request: HttpRequest, obj: ClubMember, form: forms.ModelForm, change: bool
    ) -> None:
        try:
            row = services.club_member_set(
                user=request.user,
                club=form.cleaned_data["club"],
                player=form.cleaned_data["player"],
                acc_number=form.cleaned_data["acc_number"],
                status=form.cleaned_data["status"],
            )
            obj.pk = row.pk
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)


@admin.register(ClubSeason)
class ClubSeasonAdmin(_ClubsOnly):
    list_display = ("name", "club", "starts", "points_mode", "threshold", "night_count")
    list_filter = ("club",)
    fields = ("club", "name", "starts", "points_mode", "threshold", "points_table")

    def has_change_permission(self, request: HttpRequest, obj: ClubSeason | None = None) -> bool:
        return can(request.user, Action.MANAGE_CLUBS, obj)

    def get_readonly_fields(
        self, request: HttpRequest, obj: ClubSeason | None = None
    ) -> tuple[str, ...]:
        return ("club",) if obj is not None else ()

    @admin.display(description=gettext_lazy("nights"))
    def night_count(self, obj: ClubSeason) -> int:
        return obj.nights.count()

    def save_model(
        self, request: HttpRequest, obj: ClubSeason, form: forms.ModelForm, change: bool
    ) -> None:
        """A new season through ``club_season_create``, changes through ``club_season_update``
        (refused, with the reason shown, when the scoring cannot work)."""
        data = dict(form.cleaned_data)
        try:
            if change:
                services.club_season_update(
                    user=request.user, season=ClubSeason.objects.get(pk=obj.pk), changes=data
                )
            else:
                created = services.club_season_create(
                    user=request.user,
                    club=data["club"],
                    name=data["name"],
                    starts=data.get("starts"),
                    points_mode=data["points_mode"],
                    threshold=data["threshold"],
                    points_table=data.get("points_table") or [],
                )
                obj.pk = created.pk
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)
