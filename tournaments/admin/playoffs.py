"""Playoff matches, a game at a time."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms.formsets import BaseFormSet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.kernel.admin import run_action
from league.kernel.errors import DomainError, ValidationFailed
from league.kernel.permissions import Action, can
from tournaments import services
from tournaments.admin.base import ActionPermissions
from tournaments.models import (
    PlayoffGame,
    PlayoffMatch,
)


def _new_key() -> str:
    return str(uuid.uuid4())


def _last_game(match: PlayoffMatch) -> PlayoffGame:
    game = match.games.order_by("-number").first()
    if game is None:
        raise ValidationFailed(_("This match has no game to void."))
    return game


class PlayoffGameForm(forms.ModelForm):
    game_winner = forms.ChoiceField(label=gettext_lazy("Winner of the next game"))
    game_loser_score = forms.IntegerField(label=gettext_lazy("The loser's score"), min_value=0)
    # One key per form shown: the same form saved twice (a double click) stores one game.
    game_key = forms.CharField(
        label=gettext_lazy("entry key"),
        widget=forms.HiddenInput,
        required=False,
        max_length=64,
        initial=_new_key,
    )

    class Meta:
        model = PlayoffMatch
        fields: list[str] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        m = self.instance
        self.fields["game_winner"].choices = [  # type: ignore[attr-defined]
            (str(e.pk), e.name) for e in (m.top, m.bottom) if e is not None
        ]


@admin.register(PlayoffMatch)
class PlayoffMatchAdmin(ActionPermissions, admin.ModelAdmin):
    list_display = ("tournament", "round", "position", "top", "bottom", "winner", "games_played")
    list_filter = ("tournament",)
    form = PlayoffGameForm
    readonly_fields = ("tournament", "round", "top", "bottom", "winner", "games_played")
    actions = ["void_last_game"]

    def has_module_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.RUN_TOURNAMENT)

    def has_view_permission(self, request: HttpRequest, obj: PlayoffMatch | None = None) -> bool:
        return can(request.user, Action.RUN_TOURNAMENT)

    def has_change_permission(self, request: HttpRequest, obj: PlayoffMatch | None = None) -> bool:
        if obj is not None and (obj.winner_id or obj.top_id is None or obj.bottom_id is None):
            return False
        return can(request.user, Action.RUN_TOURNAMENT, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: PlayoffMatch | None = None) -> bool:
        return False

    @admin.display(description=gettext_lazy("games"))
    def games_played(self, obj: PlayoffMatch) -> str:
        return ", ".join(f"{g.winner.name} ({g.loser_score})" for g in obj.games.all())

    def save_model(
        self, request: HttpRequest, obj: PlayoffMatch, form: PlayoffGameForm, change: bool
    ) -> None:
        winner_id = int(form.cleaned_data["game_winner"])
        winner = obj.top if winner_id == obj.top_id else obj.bottom
        assert winner is not None  # the form offers the match's two sides only
        try:
            services.playoff_game_record(
                user=request.user,
                match=obj,
                winner=winner,
                loser_score=form.cleaned_data["game_loser_score"],
                key=form.cleaned_data["game_key"] or None,
            )
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)

    @admin.action(
        description=gettext_lazy("Void the last game recorded"), permissions=["run_tournament"]
    )
    def void_last_game(self, request: HttpRequest, queryset: QuerySet[PlayoffMatch]) -> None:
        """A wrongly recorded game leaves its match (the service audits it and reopens a
        match it had decided)."""
        run_action(
            self,
            request,
            queryset,
            lambda m: services.playoff_game_void(user=request.user, game=_last_game(m)),
            done=gettext_lazy("%(name)s: its last game is void."),
        )

    def save_related(
        self, request: HttpRequest, form: PlayoffGameForm, formsets: list[BaseFormSet], change: bool
    ) -> None:
        """Nothing else to store: the service wrote the game."""
