"""The game page (deal by deal, with its board), its live part, and the other team's
confirmation or rejection, each a call to a service."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.errors import DomainError
from league.forms import RejectForm
from league.models import AuditEntry, Game, GameStatus
from league.permissions import Action, can, is_judge, is_league_admin, teams_of
from league.selectors.games import game_detail
from league.selectors.scoreboard import back_pegs, game_board, skunk_line
from league.services.disputes import dispute_raise, game_reject
from league.services.games import game_confirm


def _game(pk: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("match__week__season__league", "match__home", "match__away"),
        pk=pk,
    )


def _context(request: HttpRequest, game: Game) -> dict[str, Any]:
    detail = game_detail(game)
    game = detail["game"]
    match = game.match
    board = game_board(
        game, back=back_pegs([game])[game.pk], home=match.home.name, away=match.away.name
    )
    user = request.user
    mine = teams_of(user, match) if user.is_authenticated else set()
    # Who is asked to confirm: the team that did not enter the game (the service decides).
    waiting_for = None
    if game.status == GameStatus.FINISHED and game.entered_by is not None:
        entering = teams_of(game.entered_by, match)
        if match.home_id in entering and match.away_id not in entering:
            waiting_for = match.away
        elif match.away_id in entering and match.home_id not in entering:
            waiting_for = match.home
    asked = game.status == GameStatus.FINISHED and (
        (waiting_for is not None and waiting_for.pk in mine)
        or (waiting_for is None and bool(mine))
        or is_league_admin(user)
    )
    # Both teams, judges and league admins see the game's disputes and its history of changes.
    insider = bool(mine) or is_judge(user) or is_league_admin(user)
    return {
        **detail,
        "insider": insider,
        "disputes": list(game.disputes.select_related("judge").order_by("created_at"))
        if insider
        else [],
        "history": list(
            AuditEntry.objects.filter(game=game).select_related("actor").order_by("at", "id")
        )
        if insider
        else [],
        "can_dispute": bool(mine) and can(user, Action.RAISE_DISPUTE, match),
        "dispute_form": RejectForm(prefix="dispute") if mine else None,
        "match": match,
        "board": board,
        "skunk_line": skunk_line(match.week.season),
        "can_record": game.status == GameStatus.IN_PROGRESS
        and can(user, Action.RECORD_DEAL, match),
        "can_confirm": asked,
        "waiting_for": waiting_for,
        "reject_form": RejectForm() if asked else None,
    }


def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    return render(request, "league/game.html", _context(request, game))


def game_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The board and score of a game, polled by the game page while it is being played."""
    game = _game(pk)
    match = game.match
    board = game_board(
        game, back=back_pegs([game])[game.pk], home=match.home.name, away=match.away.name
    )
    return render(
        request,
        "league/partials/game_live.html",
        {"game": game, "match": match, "board": board, "skunk_line": skunk_line(match.week.season)},
    )


@login_required
@require_POST
def confirm(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    try:
        game_confirm(game=game, user=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("Thank you: the game is confirmed and counts in the standings.")
        )
    return redirect("league:game", pk=game.pk)


def _send_dispute(
    request: HttpRequest, pk: int, *, service: Any, form_key: str, prefix: str | None, sent: str
) -> HttpResponse:
    """Read the claim form, call the dispute service, and come back to the game page."""
    game = _game(pk)
    form = RejectForm(request.POST, prefix=prefix)
    if not form.is_valid():
        context = _context(request, game)
        context[form_key] = form
        return render(request, "league/game.html", context, status=400)
    try:
        service(
            game=game,
            user=request.user,
            claim=form.cleaned_data["claim"],
            deal_number=form.cleaned_data["deal_number"],
        )
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, sent)
    return redirect("league:game", pk=game.pk)


@login_required
@require_POST
def reject(request: HttpRequest, pk: int) -> HttpResponse:
    """The other team refuses a finished game: that raises a dispute."""
    return _send_dispute(
        request,
        pk,
        service=game_reject,
        form_key="reject_form",
        prefix=None,
        sent=_("Your dispute was sent to the judges. The game waits for their ruling."),
    )


@login_required
@require_POST
def dispute(request: HttpRequest, pk: int) -> HttpResponse:
    """A player of either team raises a dispute on any game (the service checks the role)."""
    return _send_dispute(
        request,
        pk,
        service=dispute_raise,
        form_key="dispute_form",
        prefix="dispute",
        sent=_("Your dispute was sent to the judges."),
    )
