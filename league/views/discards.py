"""A player's own discards: record the cards dealt for a deal of their game, and read what each
discard cost against the best, deal by deal and over a season. Private: a player sees only their
own (the selector is asked for the signed-in player, never for another), unless they choose to
share it; then their season's cost a deal shows in the season's table of the best discarders."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _

from league.kernel.errors import DomainError
from league.models import DealtCards, Game, GameSeat, Player, Season
from league.selectors.discards import MIN_DEALS, best_discarders, discards_of
from league.selectors.seasons import seasons_visible_to
from league.services.discards import dealt_hand_record, discards_share_set


class DealtHandForm(forms.Form):
    number = forms.TypedChoiceField(label=_("Deal"), coerce=int)
    cards = forms.CharField(label=_("The cards you were dealt"), max_length=80)

    def __init__(self, *args: object, numbers: list[int], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["number"].choices = [(n, str(n)) for n in numbers]  # type: ignore[attr-defined]


def _player(request: HttpRequest) -> Player:
    player = Player.objects.filter(user_id=request.user.pk or 0).first()
    if player is None:
        raise Http404("No player for this account.")
    return player


@login_required
def game_dealt(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("match__week__season__league"), pk=pk)
    season = game.match.week.season
    if season.league.dealt_cards == DealtCards.OFF:
        raise Http404("This league does not record the cards dealt.")
    player = _player(request)
    seat = GameSeat.objects.filter(game=game, player=player).first()
    if seat is None:
        raise Http404("Not a player of this game.")
    numbers = sorted(
        set(game.deals.filter(is_current=True, is_rival=False).values_list("number", flat=True))
    )
    form = DealtHandForm(request.POST or None, numbers=numbers)
    if request.method == "POST" and form.is_valid():
        try:
            dealt_hand_record(
                user=request.user,
                game=game,
                number=form.cleaned_data["number"],
                cards=form.cleaned_data["cards"],
            )
        except DomainError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            return redirect("league:game_dealt", pk=game.pk)
    summary = discards_of(player, game_id=game.pk)
    return render(
        request,
        "league/dealt.html",
        {
            "game": game,
            "form": form,
            "summary": summary,
            "dealt_count": season.game_variant.dealt,
        },
    )


@login_required
def my_discards(request: HttpRequest) -> HttpResponse:
    player = _player(request)
    if request.method == "POST" and "share" in request.POST:
        discards_share_set(user=request.user, player=player, share=request.POST["share"] == "1")
        return redirect(request.get_full_path())
    seasons = list(
        Season.objects.filter(weeks__matches__games__dealt_hands__player=player)
        .distinct()
        .select_related("league")
        .order_by("-pk")
    )
    chosen = seasons[0] if seasons else None
    asked = request.GET.get("season")
    if asked:
        chosen = next((s for s in seasons if str(s.pk) == asked), None)
        if chosen is None:
            raise Http404("No such season.")
    summary = discards_of(player, season=chosen) if chosen else None
    # Where to record next: the player's latest games in leagues that allow it.
    recent = [
        seat.game
        for seat in GameSeat.objects.filter(player=player)
        .exclude(game__match__week__season__league__dealt_cards=DealtCards.OFF)
        .select_related("game__match__home", "game__match__away", "game__match__week__season")
        .order_by("-game_id")[:10]
    ]
    return render(
        request,
        "league/my_discards.html",
        {
            "seasons": seasons,
            "season": chosen,
            "summary": summary,
            "recent": recent,
            "player": player,
        },
    )


def discarders(request: HttpRequest, pk: int) -> HttpResponse:
    """The season's table of the best discarders: the players who share their discards, with
    at least ``MIN_DEALS`` deals whose cost is told. Information only: never in standings."""
    season = get_object_or_404(seasons_visible_to(request.user).select_related("league"), pk=pk)
    return render(
        request,
        "league/discarders.html",
        {"season": season, "rows": best_discarders(season), "minimum": MIN_DEALS},
    )
