"""Tournaments (seat the next round, draw the bracket, the club season a night counts toward),
entrants (check in, withdraw) and rounds."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms.formsets import BaseFormSet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy

from league.kernel.admin import StoredFieldsWhenViewing, run_action
from league.kernel.errors import DomainError
from league.kernel.permissions import Action, can
from tournaments import services
from tournaments.admin.base import ActionPermissions, _DirectorOnly, _RefusalStaysOnForm
from tournaments.models import (
    Entrant,
    Round,
    Tournament,
)


@admin.register(Tournament)
class TournamentAdmin(ActionPermissions, _RefusalStaysOnForm, _DirectorOnly):
    list_display = ("name", "date", "kind", "variant", "stage", "entrant_count")
    readonly_fields = ("stage",)
    exclude = ("created_at",)
    actions = ["seat_next_round", "draw_bracket"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.RUN_TOURNAMENT)

    def has_change_permission(self, request: HttpRequest, obj: Tournament | None = None) -> bool:
        return can(request.user, Action.RUN_TOURNAMENT, obj)

    def save_model(
        self, request: HttpRequest, obj: Tournament, form: forms.ModelForm, change: bool
    ) -> None:
        """A new event through ``tournament_create``; its settings through
        ``tournament_update`` (refused, with the reason shown, if they cannot work)."""
        data = dict(form.cleaned_data)
        try:
            if change:
                services.tournament_update(user=request.user, tournament=obj, changes=data)
            else:
                created = services.tournament_create(
                    user=request.user,
                    name=data.pop("name"),
                    date=data.pop("date"),
                    kind=data.pop("kind"),
                    variant=data.pop("variant"),
                )
                obj.pk = created.pk
                services.tournament_update(user=request.user, tournament=created, changes=data)
            if "club_season" in data:
                services.night_assign_season(
                    user=request.user,
                    tournament=Tournament.objects.get(pk=obj.pk),
                    season=data["club_season"],
                )
        except DomainError as exc:
            self.refused(request, obj, exc)

    @admin.display(description=gettext_lazy("entrants"))
    def entrant_count(self, obj: Tournament) -> int:
        return obj.entrants.count()

    @admin.action(description=gettext_lazy("Seat the next round"), permissions=["run_tournament"])
    def seat_next_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda t: services.round_seat_next(user=request.user, tournament=t),
            done=gettext_lazy("%(name)s: next round seated."),
            name=lambda t: t.name,
        )

    @admin.action(description=gettext_lazy("Draw the bracket"), permissions=["run_tournament"])
    def draw_bracket(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda t: services.bracket_draw(user=request.user, tournament=t),
            done=gettext_lazy("%(name)s: bracket drawn."),
            name=lambda t: t.name,
        )


class EntrantForm(forms.ModelForm):
    player_1 = forms.CharField(
        label=gettext_lazy("first player (partnerships)"), required=False, max_length=120
    )
    player_2 = forms.CharField(
        label=gettext_lazy("second player (partnerships)"), required=False, max_length=120
    )

    class Meta:
        model = Entrant
        fields = ["tournament", "name"]


@admin.register(Entrant)
class EntrantAdmin(ActionPermissions, StoredFieldsWhenViewing, _DirectorOnly):
    list_display = ("name", "tournament", "number", "status", "seed")
    list_filter = ("tournament", "status")
    search_fields = ("name",)
    actions = ["check_in", "withdraw"]
    form = EntrantForm

    def has_add_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.RUN_TOURNAMENT)

    def save_model(
        self, request: HttpRequest, obj: Entrant, form: EntrantForm, change: bool
    ) -> None:
        """Registration through ``entrant_register`` (a late add once play has started)."""
        data = form.cleaned_data
        players = [p for p in (data.get("player_1"), data.get("player_2")) if p]
        try:
            created = services.entrant_register(
                user=request.user, tournament=data["tournament"], name=data["name"], players=players
            )
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)
        else:
            obj.pk = created.pk

    def save_related(
        self, request: HttpRequest, form: EntrantForm, formsets: list[BaseFormSet], change: bool
    ) -> None:
        """Nothing else to store: the service registered the entrant and its players."""

    @admin.action(description=gettext_lazy("Check in"), permissions=["run_tournament"])
    def check_in(self, request: HttpRequest, queryset: QuerySet[Entrant]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda e: services.entrant_check_in(user=request.user, entrant=e),
            done=gettext_lazy("%(name)s is checked in."),
            name=lambda e: e.name,
        )

    @admin.action(description=gettext_lazy("Withdraw"), permissions=["run_tournament"])
    def withdraw(self, request: HttpRequest, queryset: QuerySet[Entrant]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda e: services.entrant_withdraw(user=request.user, entrant=e),
            done=gettext_lazy("%(name)s has withdrawn."),
            name=lambda e: e.name,
        )


@admin.register(Round)
class RoundAdmin(_DirectorOnly):
    list_display = ("tournament", "number", "status")
    list_filter = ("tournament",)
