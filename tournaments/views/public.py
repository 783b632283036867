"""Public tournament pages (standings with the cut, seating per round, the bracket, the venue
TV) and the player's phone scorecard. Reads come from selectors, writes go through services."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from league.kernel.errors import DomainError
from league.kernel.permissions import Action, can, player_of, refusal
from tournaments import cutline, selectors, services
from tournaments.checks import NOT_AT_TABLE, table_side_of
from tournaments.models import Club, Entrant, PlayoffMatch, TableGame, TableState, Tournament
from tournaments.rules_messages import acc_sides_words
from tournaments.rules_sheet import tournament_rules
from tournaments.services.workspace import round_clock_end

TV_REFRESH_SECONDS = 5  # the pages redraw this often when the change counter is unknown
POLL_SECONDS = 2.5  # how often the TV and the bracket ask whether anything changed


def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/list.html",
        {
            "tournaments": Tournament.objects.order_by("-date"),
            "clubs": Club.objects.order_by("name"),
        },
    )


def _standings_context(tournament: Tournament) -> dict[str, Any]:
    """The standings rows, marked "qualifies"/"first out" once every entrant has a result,
    each entrant around the cut saying which tie-break placed it (``tournaments.cutline``)."""
    data = selectors.standings_for_tournament(tournament)
    rows, cut = cutline.rows(data)
    return {
        "rows": rows,
        "qualifiers": data["qualifiers"],
        "cut_settled": cut["settled"],
        "bracket": data["bracket"],
    }


# What a player's own table waits for, when their card cannot be entered now.
WAITING = {
    TableState.ENTERED: gettext_lazy("your card is in: waiting for your opponent's"),
    TableState.MISMATCH: gettext_lazy("the two cards disagree: a checker will settle the game"),
}


def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    player = player_of(request.user)
    my_tables = list(selectors.open_tables_for_player(player)) if player else []
    for table in my_tables:  # a player's one or two open tables: can() asks lifecycle
        table.can_enter = can(request.user, Action.ENTER_SCORECARD, table)  # type: ignore[attr-defined]
        table.waiting = WAITING.get(table.state, "")  # type: ignore[attr-defined]
    my_matches = (
        list(selectors.open_playoff_matches_for_player(player, tournament)) if player else []
    )
    return render(
        request,
        "tournaments/tournament.html",
        {
            "tournament": tournament,
            "my_matches": my_matches,
            "rounds": tournament.rounds.order_by("number"),
            "champion": selectors.champion(tournament),
            "my_tables": [t for t in my_tables if t.round.tournament_id == tournament.pk],
            **_standings_context(tournament),
        },
    )


def rules_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's rules, worded from its settings, for the players and for the wall."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return render(
        request,
        "tournaments/rules.html",
        {"tournament": tournament, "rules": tournament_rules(tournament)},
    )


class SwapForm(forms.Form):
    a = forms.ModelChoiceField(queryset=Entrant.objects.none(), label=gettext_lazy("Entrant"))
    b = forms.ModelChoiceField(queryset=Entrant.objects.none(), label=gettext_lazy("swaps with"))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entrants = tournament.entrants.order_by("name")
        self.fields["a"].queryset = entrants  # type: ignore[attr-defined]
        self.fields["b"].queryset = entrants  # type: ignore[attr-defined]


@require_http_methods(["GET", "POST"])
def round_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round's seating list (printable); the director swaps two entrants here."""
    tournament = get_object_or_404(Tournament, pk=pk)
    rnd = get_object_or_404(selectors.rounds_with_seating(tournament), number=number)
    director = can(request.user, Action.RUN_TOURNAMENT, tournament)
    form = SwapForm(request.POST or None, tournament=tournament) if director else None
    if request.method == "POST":
        if form is None:
            return HttpResponse(status=403)
        if form.is_valid():
            try:
                services.round_swap(
                    user=request.user, round=rnd, a=form.cleaned_data["a"], b=form.cleaned_data["b"]
                )
            except DomainError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Seats swapped."))
            return redirect("tournaments:round", pk=pk, number=number)
    return render(
        request,
        "tournaments/round.html",
        {"tournament": tournament, "round": rnd, "form": form},
    )


def bracket_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    return render(
        request,
        "tournaments/bracket.html",
        {
            "tournament": tournament,
            "rounds": selectors.bracket_rounds(tournament),
            "champion": selectors.champion(tournament),
            **_live(tournament),
        },
    )


def tv_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The venue TV: the bracket once drawn, else the current round's seating, large, and
    redrawn in place whenever the tournament's version changes."""
    tournament = get_object_or_404(Tournament, pk=pk)
    rounds = selectors.bracket_rounds(tournament)
    rnd = None if rounds else selectors.current_round(tournament)
    context: dict[str, Any] = {
        "tournament": tournament,
        "bracket": rounds,
        "round": rnd,
        "champion": selectors.champion(tournament),
        "arrived": (
            []
            if rounds or rnd
            else list(tournament.entrants.filter(status="checked_in").order_by("name"))
        ),
        "clock_ends": round_clock_end(rnd.started_at if rnd else None, tournament.round_minutes),
        **_live(tournament),
    }
    if rnd is not None:
        games = list(rnd.games.all())
        context["seating_columns"] = _columns(games, per_column=TV_ROWS_PER_COLUMN)
        standings = _standings_context(tournament)
        rows = standings["rows"]
        shown = _around_the_cut(rows, len(standings["qualifiers"]))
        context.update(
            rows=shown, more_rows=len(rows) - len(shown), cut_settled=standings["cut_settled"]
        )
    return render(request, "tournaments/tv.html", context)


TV_ROWS_PER_COLUMN = 14  # seating rows a column holds at 1920x1080
TV_STANDINGS_ROWS = 16  # standings rows beside the seating


def _columns(games: list[TableGame], *, per_column: int) -> list[list[TableGame]]:
    """The round's tables in columns of about equal length, at most ``per_column`` each."""
    if not games:
        return [[]]
    count = -(-len(games) // per_column)
    size = -(-len(games) // count)
    return [games[i : i + size] for i in range(0, len(games), size)]


def _around_the_cut(rows: list[dict[str, Any]], qualifiers: int) -> list[dict[str, Any]]:
    """The standings rows the TV shows beside the seating: the qualifiers and the first few
    out (all of a small field)."""
    if len(rows) <= TV_STANDINGS_ROWS:
        return rows
    return rows[: max(TV_STANDINGS_ROWS, qualifiers + 4)]


def _live(tournament: Tournament) -> dict[str, Any]:
    """What a page that redraws itself needs: the version it shows and how often to ask."""
    return {
        "live_version": selectors.tournament_version(tournament.pk, every=TV_REFRESH_SECONDS),
        "poll_ms": int(POLL_SECONDS * 1000),
    }


def version(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament's change counter, polled by the TV and the bracket: a few bytes, and a
    304 with none while nothing changed (the page sends back the ETag it was given). The
    pages fetch and redraw only when it moves."""
    get_object_or_404(Tournament.objects.only("pk"), pk=pk)
    current = selectors.tournament_version(pk, every=TV_REFRESH_SECONDS)
    response = JsonResponse({"version": current})
    response["ETag"] = f'"{current}"'
    patch_cache_control(response, max_age=1)
    conditional = get_conditional_response(request, etag=response["ETag"], response=response)
    assert conditional is not None  # given a response, it answers one
    return conditional


class ResultForm(forms.Form):
    """A phone's card: who won (one of ``sides``, the entrants still known) and the loser's
    score."""

    winner = forms.ChoiceField(label=gettext_lazy("Who won?"), widget=forms.RadioSelect)
    loser_score = forms.IntegerField(
        label=gettext_lazy("The loser's score"),
        min_value=0,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args: Any, sides: Iterable[Entrant | None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [  # type: ignore[attr-defined]
            (str(e.pk), e.name) for e in sides if e is not None
        ]


def _scorecard_refused(request: HttpRequest, game: TableGame) -> HttpResponse | None:
    """The 403 page for whoever may not use this table's phone scorecard, or None. A checker
    (judge, league admin) who does not play here is told where paper cards are keyed in: the
    phone's card is a side's own, and the form would have nothing to send for them."""
    refused = refusal(request.user, Action.ENTER_SCORECARD, game)
    message = refused.message() if refused is not None else None
    checker = False
    if refused is None and table_side_of(request.user, game) is None:
        checker = can(request.user, Action.CHECK_SCORECARDS, game)
        message = (
            _(
                "You do not play at this table: its phone scorecard is for its players. "
                "As a checker, you key in a paper card or settle the table in the admin."
            )
            if checker
            else str(NOT_AT_TABLE.message())
        )
    if message is None:
        return None
    return render(
        request,
        "tournaments/scorecard.html",
        {"game": game, "refused": message, "checker": checker},
        status=403,
    )


@login_required
@require_http_methods(["GET", "POST"])
def scorecard(request: HttpRequest, pk: int) -> HttpResponse:
    """The phone's scorecard for one table: the winner and the loser's score."""
    game = get_object_or_404(
        TableGame.objects.select_related("round__tournament", "first", "second"), pk=pk
    )
    refused = _scorecard_refused(request, game)
    if refused is not None:
        return refused
    form = ResultForm(request.POST or None, sides=(game.first, game.second))
    if request.method == "POST" and form.is_valid():
        winner = game.first if form.cleaned_data["winner"] == str(game.first_id) else game.second
        try:
            game, _created = services.scorecard_enter(
                user=request.user,
                game=game,
                winner=winner,
                loser_score=form.cleaned_data["loser_score"],
            )
        except DomainError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            clause = services.acc_clause_of(game)
            sides = acc_sides_words(game)
            if clause and sides:
                messages.success(
                    request,
                    _("The two cards disagreed: ACC Rule %(clause)s settled the game, %(sides)s.")
                    % {"clause": clause, "sides": sides},
                )
            elif clause:
                messages.success(
                    request,
                    _(
                        "The two cards disagreed: ACC Rule %(clause)s settled the game, "
                        "%(winner)s winning, the loser on %(score)s."
                    )
                    % {"clause": clause, "winner": game.winner, "score": game.loser_score},
                )
            elif game.status == TableState.VERIFIED:
                messages.success(request, _("Both cards agree: the game is verified."))
            elif game.status == TableState.MISMATCH:
                messages.warning(
                    request, _("The two cards disagree: a checker will settle the game.")
                )
            else:
                messages.success(request, _("Card sent. Waiting for your opponent's card."))
            return redirect("tournaments:tournament", pk=game.round.tournament_id)
    return render(request, "tournaments/scorecard.html", {"game": game, "form": form})


@login_required
def scorecard_deals(request: HttpRequest, pk: int) -> HttpResponse:
    """The phone's scorecard deal by deal, with the league's deal form; the card is sent (with
    every deal) through the outbox once a side reaches the target."""
    game = get_object_or_404(
        TableGame.objects.select_related("round__tournament", "first", "second"), pk=pk
    )
    refused = _scorecard_refused(request, game)
    if refused is not None:
        return refused
    return render(
        request,
        "tournaments/scorecard_deals.html",
        {"game": game, "data": selectors.scorecard_entry_data(game)},
    )


# What the phone says after a playoff card, by what it did.
CARD_SAID = {
    TableState.ENTERED: gettext_lazy("Card sent. Waiting for your opponent's card."),
    TableState.VERIFIED: gettext_lazy("Both cards agree: the game is recorded."),
    TableState.MISMATCH: gettext_lazy("The two cards disagree: the director will decide the game."),
}


@login_required
@require_http_methods(["GET", "POST"])
def playoff_card(request: HttpRequest, pk: int) -> HttpResponse:
    """The phone's card for the next game of the player's own playoff match."""
    match = get_object_or_404(
        PlayoffMatch.objects.select_related("tournament", "top", "bottom"), pk=pk
    )
    number = match.games.count() + 1
    context: dict[str, Any] = {"match": match, "number": number}
    if services.side_in_match(request.user, match) is None:
        context["refused"] = _("You do not play in this match.")
        return render(request, "tournaments/playoff_card.html", context, status=403)
    form = ResultForm(request.POST or None, sides=(match.top, match.bottom))
    if request.method == "POST" and form.is_valid():
        winner = match.top if form.cleaned_data["winner"] == str(match.top_id) else match.bottom
        assert winner is not None
        try:
            _match, outcome = services.playoff_card_enter(
                user=request.user,
                match=match,
                winner=winner,
                loser_score=form.cleaned_data["loser_score"],
            )
        except DomainError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            disagree = outcome == TableState.MISMATCH
            level = messages.WARNING if disagree else messages.SUCCESS
            messages.add_message(request, level, str(CARD_SAID[outcome]))
            return redirect("tournaments:tournament", pk=match.tournament_id)
    context["form"] = form
    return render(request, "tournaments/playoff_card.html", context)
