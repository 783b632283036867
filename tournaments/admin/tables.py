"""The checkers' tables: the queue (both scorecards side by side, the checker's entry settles
the game), the ACC rulings, and paper scorecards (a checker keys in one side's card, for a
player with no phone)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms.formsets import BaseFormSet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.kernel.admin import run_action
from league.kernel.errors import DomainError
from league.kernel.permissions import Action, can
from tournaments import selectors, services
from tournaments.admin.base import ActionPermissions, _RefusalStaysOnForm
from tournaments.models import (
    AccRuling,
    CheckersQueue,
    PaperScorecard,
    TableGame,
    TableState,
)
from tournaments.rules_messages import acc_sides_words


class _CheckersTables(admin.ModelAdmin):
    """The tables a checker works through (the queue, the rulings, the paper cards): a
    checker's pages (``can()``), never added or deleted here, with the table's tournament,
    round and the cards in side by side."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.CHECK_SCORECARDS)

    def has_view_permission(self, request: HttpRequest, obj: TableGame | None = None) -> bool:
        return can(request.user, Action.CHECK_SCORECARDS)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: TableGame | None = None) -> bool:
        return False

    @admin.display(description=gettext_lazy("tournament"))
    def tournament(self, obj: TableGame) -> str:
        return obj.round.tournament.name

    @admin.display(description=gettext_lazy("round"))
    def round_number(self, obj: TableGame) -> int:
        return obj.round.number

    @admin.display(description=gettext_lazy("scorecards, side by side"))
    def entries(self, obj: TableGame) -> str:
        return _cards_in(obj)


class SettleForm(forms.ModelForm):
    """The checker's entry: who won and the loser's score."""

    settle_winner = forms.ChoiceField(label=gettext_lazy("Winner"))
    settle_loser_score = forms.IntegerField(label=gettext_lazy("The loser's score"), min_value=0)

    class Meta:
        model = CheckersQueue
        fields: list[str] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game = self.instance
        self.fields["settle_winner"].choices = [  # type: ignore[attr-defined]
            (str(game.first_id), game.first.name),
            (str(game.second_id), game.second.name),
        ]


@admin.register(CheckersQueue)
class CheckersQueueAdmin(_CheckersTables):
    list_display = ("tournament", "round_number", "table", "first", "second", "entries")
    form = SettleForm
    readonly_fields = ("tournament", "round_number", "table", "first", "second", "entries")
    fieldsets = (
        (None, {"fields": ("tournament", "round_number", "table", "first", "second", "entries")}),
        (
            gettext_lazy("The checker's entry settles the game"),
            {"fields": ("settle_winner", "settle_loser_score")},
        ),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[TableGame]:
        return selectors.checkers_queue()

    def has_change_permission(self, request: HttpRequest, obj: TableGame | None = None) -> bool:
        """True when ``can()`` lets this checker settle ``obj`` now (lifecycle refuses a table
        whose result stands, and nobody settles a table they play at)."""
        return can(request.user, Action.CHECK_SCORECARDS, obj)

    def save_model(
        self, request: HttpRequest, obj: TableGame, form: SettleForm, change: bool
    ) -> None:
        winner_id = int(form.cleaned_data["settle_winner"])
        winner = obj.first if winner_id == obj.first_id else obj.second
        try:
            services.scorecard_settle(
                user=request.user,
                game=obj,
                winner=winner,
                loser_score=form.cleaned_data["settle_loser_score"],
            )
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)

    def save_related(
        self, request: HttpRequest, form: SettleForm, formsets: list[BaseFormSet], change: bool
    ) -> None:
        """Nothing else to store: the service wrote the checker's entry."""


@admin.register(AccRuling)
class AccRulingAdmin(ActionPermissions, _CheckersTables):
    """What ACC Rule 12.2 settled without the checkers, with the clause it applied; a checker
    undoes a ruling (the table goes back to the checkers' queue)."""

    list_display = ("tournament", "round_number", "table", "entries", "ruling")
    actions = ("undo_ruling",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[TableGame]:
        return selectors.acc_rulings()

    def has_change_permission(self, request: HttpRequest, obj: TableGame | None = None) -> bool:
        return False

    @admin.display(description=gettext_lazy("the ACC rule's ruling"))
    def ruling(self, obj: TableGame) -> str:
        rulings = [c for c in obj.scorecards.all() if c.by_checker]
        last = rulings[-1]
        sides = acc_sides_words(obj)
        if sides or last.winner is None:
            return _("ACC Rule %(clause)s: %(sides)s") % {"clause": last.acc_clause, "sides": sides}
        return _("ACC Rule %(clause)s: %(winner)s won, loser %(score)s") % {
            "clause": last.acc_clause,
            "winner": last.winner.name,
            "score": last.loser_score,
        }

    @admin.action(
        description=gettext_lazy("Undo the ACC ruling (back to the checkers' queue)"),
        permissions=["check_scorecards"],
    )
    def undo_ruling(self, request: HttpRequest, queryset: QuerySet[TableGame]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda g: services.scorecard_acc_reverse(user=request.user, game=g),
            done=gettext_lazy("back in the checkers' queue"),
            name=str,
        )


def _cards_in(game: TableGame) -> str:
    """The sides' cards of a table, side by side (``scorecards`` prefetched)."""
    cards = [c for c in game.scorecards.all() if not c.by_checker]
    return " | ".join(
        _("Card for %(side)s: %(winner)s won, loser %(score)s")
        % {
            "side": c.side.name if c.side else "?",
            "winner": c.winner.name if c.winner else "?",
            "score": c.loser_score,
        }
        for c in cards
    )


class PaperCardForm(forms.ModelForm):
    """A paper scorecard keyed in by a checker: whose card it is, who won, the loser's score."""

    paper_side = forms.ChoiceField(label=gettext_lazy("Whose card is it?"))
    paper_winner = forms.ChoiceField(label=gettext_lazy("Winner"))
    paper_loser_score = forms.IntegerField(label=gettext_lazy("The loser's score"), min_value=0)

    class Meta:
        model = PaperScorecard
        fields: list[str] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game = self.instance
        sides = [(str(game.first_id), game.first.name), (str(game.second_id), game.second.name)]
        self.fields["paper_side"].choices = sides  # type: ignore[attr-defined]
        self.fields["paper_winner"].choices = sides  # type: ignore[attr-defined]


@admin.register(PaperScorecard)
class PaperScorecardAdmin(_RefusalStaysOnForm, _CheckersTables):
    """Paper scorecards: the tables of the running rounds still waiting for a card, where a
    checker keys in one side's card for a player with no phone. The card goes through
    ``scorecard_enter`` like a phone's: two that agree verify the table, two that differ send
    it to the checkers' queue; a refusal (that side's card is already in, the result stands,
    the checker plays at the table) is shown as an error and changes nothing."""

    list_display = ("tournament", "round_number", "table", "first", "second", "entries")
    list_display_links = ("table",)
    form = PaperCardForm
    readonly_fields = ("tournament", "round_number", "table", "first", "second", "entries")
    fieldsets = (
        (None, {"fields": ("tournament", "round_number", "table", "first", "second", "entries")}),
        (
            gettext_lazy("A paper scorecard, keyed in for one side"),
            {"fields": ("paper_side", "paper_winner", "paper_loser_score")},
        ),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[TableGame]:
        return selectors.tables_awaiting_cards()

    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> TableGame | None:
        """Any table, not only those listed: one whose result came in since the list was read
        still opens, and the service says why its card is refused."""
        try:
            return selectors.tables_with_cards().get(pk=int(object_id))
        except (ValueError, TableGame.DoesNotExist):
            return None

    def has_change_permission(self, request: HttpRequest, obj: TableGame | None = None) -> bool:
        """A checker's role (``can()``); whether this table takes this side's card now is the
        service's question, so that a refusal is said, not a blank page."""
        return can(request.user, Action.CHECK_SCORECARDS)

    @admin.display(description=gettext_lazy("cards in"))
    def entries(self, obj: TableGame) -> str:
        return _cards_in(obj) or _("no card yet")

    def save_model(
        self, request: HttpRequest, obj: TableGame, form: PaperCardForm, change: bool
    ) -> None:
        data = form.cleaned_data
        by_pk = {obj.first_id: obj.first, obj.second_id: obj.second}
        side = by_pk[int(data["paper_side"])]
        try:
            game, _created = services.scorecard_enter(
                user=request.user,
                game=obj,
                side=side,
                winner=by_pk[int(data["paper_winner"])],
                loser_score=data["paper_loser_score"],
            )
        except DomainError as exc:
            self.refused(request, obj, exc)
            return
        outcomes: dict[str, str] = {
            TableState.VERIFIED: _("the two cards agree: the table is verified."),
            TableState.MISMATCH: _("the two cards disagree: the table is in the checkers' queue."),
        }
        outcome = outcomes.get(game.status, _("the other side's card is still to come."))
        self.message_user(
            request,
            _("Table %(table)s: the paper card for %(side)s is in; %(outcome)s")
            % {"table": game.table, "side": side.name, "outcome": outcome},
            messages.SUCCESS,
        )

    def save_related(
        self, request: HttpRequest, form: PaperCardForm, formsets: list[BaseFormSet], change: bool
    ) -> None:
        """Nothing else to store: the service wrote the card."""

    def response_change(self, request: HttpRequest, obj: TableGame) -> HttpResponse:
        """Back to the card after a refusal (its reason shown); else to the tables, with what
        the card did instead of the admin's "changed successfully"."""
        if getattr(obj, "admin_refused", False):
            return HttpResponseRedirect(request.path)
        return HttpResponseRedirect(reverse("admin:tournaments_paperscorecard_changelist"))
