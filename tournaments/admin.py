"""The director's and checkers' admin: clubs and club seasons; tournaments (seat the next
round, draw the bracket, the club season a night counts toward); the money (purses with their
ledger: collect fees, pay out, close the night; side pots; ledger entries by hand);
entrants (check in, withdraw), rounds, the checkers' queue (both scorecards side by side, the
checker's entry settles the game), paper scorecards (a checker keys in one side's card, for a
player with no phone) and playoff matches (a game at a time). Every change goes
through a service; ``has_*_permission`` asks ``can()``."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms.formsets import BaseFormSet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils import formats
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.kernel.admin import StoredFieldsWhenViewing, run_action
from league.kernel.errors import DomainError, ValidationFailed
from league.kernel.permissions import Action, can
from tournaments import selectors, services
from tournaments.amounts import dollars
from tournaments.checks import clubs_directed_by, nights_kept_by
from tournaments.models import (
    AccRuling,
    CheckersQueue,
    Club,
    ClubMember,
    ClubSeason,
    Entrant,
    LedgerEntry,
    PaperScorecard,
    PlayoffGame,
    PlayoffMatch,
    Purse,
    Round,
    SidePot,
    TableGame,
    TableStatus,
    Tournament,
)
from tournaments.rules_messages import acc_sides_words


class _DirectorOnly(admin.ModelAdmin):
    def has_module_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.RUN_TOURNAMENT) or can(
            request.user, Action.CHECK_SCORECARDS
        )

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class _RefusalStaysOnForm(admin.ModelAdmin):
    """A form whose save the service refused: the reason is shown on the same form, with no
    "changed successfully" beside it and nothing in the admin's history (nothing changed)."""

    def refused(self, request: HttpRequest, obj: Any, exc: DomainError) -> None:
        obj.admin_refused = True
        self.message_user(request, exc.message, messages.ERROR)

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        if getattr(obj, "admin_refused", False):
            return None
        return super().log_change(request, obj, message)

    def response_change(self, request: HttpRequest, obj: Any) -> HttpResponse:
        if getattr(obj, "admin_refused", False):
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)


@admin.register(Tournament)
class TournamentAdmin(_RefusalStaysOnForm, _DirectorOnly):
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

    @admin.action(description=gettext_lazy("Seat the next round"))
    def seat_next_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda t: services.round_seat_next(user=request.user, tournament=t),
            done=gettext_lazy("%(name)s: next round seated."),
            name=lambda t: t.name,
        )

    @admin.action(description=gettext_lazy("Draw the bracket"))
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
class EntrantAdmin(StoredFieldsWhenViewing, _DirectorOnly):
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

    @admin.action(description=gettext_lazy("Check in"))
    def check_in(self, request: HttpRequest, queryset: QuerySet[Entrant]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda e: services.entrant_check_in(user=request.user, entrant=e),
            done=gettext_lazy("%(name)s is checked in."),
            name=lambda e: e.name,
        )

    @admin.action(description=gettext_lazy("Withdraw"))
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
class AccRulingAdmin(_CheckersTables):
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

    @admin.action(description=gettext_lazy("Undo the ACC ruling (back to the checkers' queue)"))
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
            TableStatus.VERIFIED: _("the two cards agree: the table is verified."),
            TableStatus.MISMATCH: _("the two cards disagree: the table is in the checkers' queue."),
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
class PlayoffMatchAdmin(admin.ModelAdmin):
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

    @admin.action(description=gettext_lazy("Void the last game recorded"))
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


# --------------------------------------------------------------------------------------------
# Clubs and club seasons
# --------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------
# Money: seen and kept by directors and league admins only (``Action.KEEP_MONEY``)
# --------------------------------------------------------------------------------------------


class _MoneyOnly(admin.ModelAdmin):
    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        """A director's lists hold the money of their clubs' nights (and of nights of no
        club) only: another club's fees and payouts are not theirs to read."""
        rows = super().get_queryset(request)
        kept = nights_kept_by(request.user)
        if kept is None:
            return rows
        return rows.filter(tournament__in=Tournament.objects.filter(kept))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.KEEP_MONEY)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can(request.user, Action.KEEP_MONEY, getattr(obj, "tournament", None))

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can(request.user, Action.KEEP_MONEY)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Purse)
class PurseAdmin(_MoneyOnly):
    """An event's purse (entry fee, house share, payout table) with its ledger below; the
    actions collect the fees, record the payouts and close the night (refused, with the
    difference named, unless the books balance)."""

    list_display = ("tournament", "entry_fee", "house_percent", "payout_mode", "books")
    fields = ("tournament", "entry_fee", "house_percent", "payout_mode", "payout_table", "books")
    actions = ["collect_fees", "record_payouts", "close_night"]

    def has_change_permission(self, request: HttpRequest, obj: Purse | None = None) -> bool:
        return can(request.user, Action.KEEP_MONEY, getattr(obj, "tournament", None)) and not (
            obj is not None and obj.is_closed
        )

    def get_readonly_fields(
        self, request: HttpRequest, obj: Purse | None = None
    ) -> tuple[str, ...]:
        return ("tournament", "books") if obj is not None else ("books",)

    @admin.display(description=gettext_lazy("books"))
    def books(self, obj: Purse) -> str:
        """In, out and the balance, with a link to the ledger and to the money page."""
        if obj.pk is None:
            return "—"
        books = selectors.books_for(obj.tournament)
        state = (
            _("closed %(at)s") % {"at": formats.date_format(obj.closed_at, "SHORT_DATETIME_FORMAT")}
            if obj.closed_at
            else _("balance %(amount)s") % {"amount": dollars(books.balance)}
        )
        return format_html(
            '{} · {} · {} · <a href="{}?tournament__id__exact={}">{}</a> · <a href="{}">{}</a>',
            _("in %(amount)s") % {"amount": dollars(books.money_in)},
            _("out %(amount)s") % {"amount": dollars(books.money_out)},
            state,
            reverse("admin:tournaments_ledgerentry_changelist"),
            obj.tournament_id,
            _("ledger"),
            reverse("tournaments:money", args=[obj.tournament_id]),
            _("money page"),
        )

    def save_model(
        self, request: HttpRequest, obj: Purse, form: forms.ModelForm, change: bool
    ) -> None:
        data = form.cleaned_data
        tournament = obj.tournament if change else data["tournament"]
        try:
            purse = services.purse_set(
                user=request.user,
                tournament=tournament,
                entry_fee=data["entry_fee"],
                house_percent=data["house_percent"],
                payout_mode=data["payout_mode"],
                payout_table=data.get("payout_table") or [],
            )
            obj.pk = purse.pk
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)

    def _each_night(
        self,
        request: HttpRequest,
        queryset: QuerySet[Purse],
        service: Callable[..., object],
        done: str,
    ) -> None:
        """Run ``service`` on each selected purse's night, each in its own try (one night's
        refusal is shown and the others still run), ``done`` naming the night when it worked."""
        run_action(
            self,
            request,
            queryset.select_related("tournament"),
            lambda p: service(user=request.user, tournament=p.tournament),
            done=done,
            name=lambda p: p.tournament.name,
        )

    @admin.action(description=gettext_lazy("Collect the entry fees"))
    def collect_fees(self, request: HttpRequest, queryset: QuerySet[Purse]) -> None:
        self._each_night(
            request, queryset, services.fees_collect, _("%(name)s: entry fees recorded.")
        )

    @admin.action(description=gettext_lazy("Record the payouts by the table"))
    def record_payouts(self, request: HttpRequest, queryset: QuerySet[Purse]) -> None:
        self._each_night(
            request, queryset, services.payouts_record, _("%(name)s: payouts recorded.")
        )

    @admin.action(description=gettext_lazy("Close the night (the books must balance)"))
    def close_night(self, request: HttpRequest, queryset: QuerySet[Purse]) -> None:
        self._each_night(
            request, queryset, services.night_close, _("%(name)s: the night is closed.")
        )


@admin.register(SidePot)
class SidePotAdmin(_MoneyOnly):
    list_display = ("tournament", "kind", "fee", "hands", "rolls_over")
    fields = ("tournament", "kind", "fee", "hands", "rolls_over")

    def save_model(
        self, request: HttpRequest, obj: SidePot, form: forms.ModelForm, change: bool
    ) -> None:
        data = form.cleaned_data
        try:
            pot = services.side_pot_set(
                user=request.user,
                tournament=data["tournament"],
                kind=data["kind"],
                fee=data["fee"],
                hands=data.get("hands") or None,
                rolls_over=data.get("rolls_over"),
            )
            obj.pk = pot.pk
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)


class LedgerEntryForm(forms.ModelForm):
    kind = forms.ChoiceField(
        label=gettext_lazy("kind"), choices=[(k.value, k.label) for k in services.MANUAL_KINDS]
    )

    class Meta:
        model = LedgerEntry
        fields = ["tournament", "kind", "entrant", "amount", "note"]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(_MoneyOnly):
    """The ledger of every event; a director records a movement by hand here (a fee at the
    door, a cash payout, the house share, a refund) or removes one made in error."""

    list_display = ("tournament", "kind", "entrant", "pot", "place", "amount", "note", "at")
    list_filter = ("tournament", "kind")
    form = LedgerEntryForm

    def has_delete_permission(self, request: HttpRequest, obj: LedgerEntry | None = None) -> bool:
        return can(request.user, Action.KEEP_MONEY, getattr(obj, "tournament", None))

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # one entry at a time, through the service
        return actions

    def save_model(
        self, request: HttpRequest, obj: LedgerEntry, form: LedgerEntryForm, change: bool
    ) -> None:
        data = form.cleaned_data
        try:
            entry = services.ledger_entry_add(
                user=request.user,
                tournament=data["tournament"],
                kind=data["kind"],
                amount=data["amount"],
                entrant=data.get("entrant"),
                note=data.get("note") or "",
            )
            obj.pk = entry.pk
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)

    def delete_model(self, request: HttpRequest, obj: LedgerEntry) -> None:
        try:
            services.ledger_entry_remove(user=request.user, entry=obj)
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)
