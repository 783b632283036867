"""Public tournament pages (standings with the cut, seating per round, the bracket, the venue
TV) and the player's phone scorecard. Reads come from selectors, writes go through services."""

from __future__ import annotations

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
from league.kernel.lifecycle import CardState
from league.kernel.permissions import Action, can, player_of, refusal
from tournaments import selectors, services
from tournaments.models import Club, Entrant, TableGame, Tournament

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
    data = selectors.standings_for_tournament(tournament)
    qualifiers = data["qualifiers"]
    rows: list[dict[str, Any]] = []
    first_out = None
    for row in data["standings"]:
        qualifies = row["entrant"] in qualifiers
        if first_out is None and not qualifies and len(qualifiers) and rows:
            first_out = row["entrant"]
        rows.append({**row, "qualifies": qualifies, "first_out": row["entrant"] == first_out})
    return {"rows": rows, "qualifiers": qualifiers, "bracket": data["bracket"]}


# What a player's own table waits for, when their card cannot be entered now.
WAITING = {
    CardState.ENTERED: gettext_lazy("your card is in: waiting for your opponent's"),
    CardState.MISMATCH: gettext_lazy("the two cards disagree: a checker will settle the game"),
}


def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    player = player_of(request.user)
    my_tables = list(selectors.open_tables_for_player(player)) if player else []
    for table in my_tables:  # a player's one or two open tables: can() asks lifecycle
        table.can_enter = can(request.user, Action.ENTER_SCORECARD, table)  # type: ignore[attr-defined]
        table.waiting = WAITING.get(table.state, "")  # type: ignore[attr-defined]
    return render(
        request,
        "tournaments/tournament.html",
        {
            "tournament": tournament,
            "rounds": tournament.rounds.order_by("number"),
            "champion": selectors.champion(tournament),
            "my_tables": [t for t in my_tables if t.round.tournament_id == tournament.pk],
            **_standings_context(tournament),
        },
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
    return render(
        request,
        "tournaments/tv.html",
        {
            "tournament": tournament,
            "bracket": rounds,
            "round": None if rounds else selectors.current_round(tournament),
            "champion": selectors.champion(tournament),
            **_live(tournament),
        },
    )


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


class ScorecardForm(forms.Form):
    winner = forms.ChoiceField(label=gettext_lazy("Who won?"), widget=forms.RadioSelect)
    loser_score = forms.IntegerField(
        label=gettext_lazy("The loser's score"),
        min_value=0,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args: Any, game: TableGame, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [  # type: ignore[attr-defined]
            (str(game.first_id), game.first.name),
            (str(game.second_id), game.second.name),
        ]


@login_required
@require_http_methods(["GET", "POST"])
def scorecard(request: HttpRequest, pk: int) -> HttpResponse:
    """The phone's scorecard for one table: the winner and the loser's score."""
    game = get_object_or_404(
        TableGame.objects.select_related("round__tournament", "first", "second"), pk=pk
    )
    refused = refusal(request.user, Action.ENTER_SCORECARD, game)
    if refused is not None:
        return render(
            request,
            "tournaments/scorecard.html",
            {"game": game, "refused": refused.message()},
            status=403,
        )
    form = ScorecardForm(request.POST or None, game=game)
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
            if game.status == "verified":
                messages.success(request, _("Both cards agree: the game is verified."))
            elif game.status == "mismatch":
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
    refused = refusal(request.user, Action.ENTER_SCORECARD, game)
    if refused is not None:
        return render(
            request,
            "tournaments/scorecard.html",
            {"game": game, "refused": refused.message()},
            status=403,
        )
    return render(
        request,
        "tournaments/scorecard_deals.html",
        {"game": game, "data": selectors.scorecard_entry_data(game)},
    )
