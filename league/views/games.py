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

from league.forms import RejectForm
from league.kernel.errors import DomainError
from league.kernel.ids import number_from
from league.kernel.permissions import Action, can, warm_permissions
from league.models import Deal, Dispute, Game
from league.selectors.disputes import disputes_visible_to
from league.selectors.games import game_detail, pending_rivals
from league.selectors.history import game_history
from league.selectors.scoreboard import back_pegs, game_board, skunk_line
from league.selectors.winprob import game_chance, game_swing, swing_chart
from league.services.corrections import rival_withdraw
from league.services.disputes import dispute_raise, dispute_withdraw, game_reject
from league.services.games import awaiting_teams_of, game_cancel, game_confirm


def _game(pk: int) -> Game:
    return get_object_or_404(
        Game.objects.filter(match__week__season__importing=False).select_related(
            "match__week__season__league", "match__home", "match__away"
        ),
        pk=pk,
    )


def _context(request: HttpRequest, game: Game) -> dict[str, Any]:
    """What the game page shows and offers: every action offered is one ``can()`` allows."""
    detail = game_detail(game)
    game = detail["game"]
    match = game.match
    user = request.user
    warm_permissions(user)
    board = game_board(
        game, back=back_pegs([game])[game.pk], home=match.home.name, away=match.away.name
    )
    insider = can(user, Action.VIEW_DISPUTES, game)
    rivals = pending_rivals(game) if insider else []
    for row in rivals:
        row["can_withdraw"] = can(user, Action.WITHDRAW_RIVAL, row["rival"])
        row["can_dispute"] = can(user, Action.RAISE_DISPUTE, game)
    can_confirm = can(user, Action.CONFIRM_GAME, game)
    can_reject = can(user, Action.REJECT_GAME, game)
    can_dispute = can(user, Action.RAISE_DISPUTE, game)
    season = match.week.season
    swing = game_swing(
        game,
        sorted(detail["deal_rows"], key=lambda d: d.number),
        variant=season.variant,
        target=season.target,
    )
    return {
        "swing": swing,
        "swing_chart": swing_chart(swing),
        "chance": game_chance(game, variant=season.variant, target=season.target),
        **detail,
        "insider": insider,
        "disputes": list(disputes_visible_to(user, game=game).select_related("judge"))
        if insider
        else [],
        "history": game_history(game) if insider else [],
        "rivals": rivals,
        "can_dispute": can_dispute,
        "dispute_form": RejectForm(prefix="dispute") if can_dispute else None,
        "match": match,
        "board": board,
        "skunk_line": skunk_line(match.week.season),
        "can_record": can(user, Action.RECORD_DEAL, game),
        "can_correct": any(can(user, Action.CORRECT_DEAL, d) for d in detail["deal_rows"]),
        "can_confirm": can_confirm,
        "can_cancel": can(user, Action.CANCEL_GAME, game),
        "can_reject": can_reject,
        "awaiting": awaiting_teams_of(game),
        "reject_form": RejectForm() if can_reject else None,
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
        {
            "game": game,
            "match": match,
            "board": board,
            "skunk_line": skunk_line(match.week.season),
            "chance": game_chance(
                game, variant=match.week.season.variant, target=match.week.season.target
            ),
        },
    )


@login_required
@require_POST
def confirm(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    try:
        game = game_confirm(game=game, user=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        if game.status == "confirmed":
            messages.success(
                request, _("Thank you: the game is confirmed and counts in the standings.")
            )
        else:
            messages.success(
                request,
                _("Thank you: your team has vouched for the game; the other team is asked too."),
            )
    return redirect("league:game", pk=game.pk)


@login_required
@require_POST
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Either team cancels a game started by mistake, before its first deal."""
    game = _game(pk)
    try:
        game = game_cancel(game=game, user=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("league:game", pk=game.pk)
    messages.success(
        request,
        _("Game %(n)s is cancelled: start it again when its players sit down.")
        % {"n": game.number},
    )
    return redirect("league:match", pk=game.match_id)


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
    extra = {}
    rival_id = number_from(request.POST.get("rival"))
    if rival_id is not None and service is dispute_raise:
        rival = Deal.objects.filter(pk=rival_id, game=game, is_rival=True).first()
        if rival is not None:
            extra["rival"] = rival
    try:
        service(
            game=game,
            user=request.user,
            claim=form.cleaned_data["claim"],
            deal_number=form.cleaned_data["deal_number"],
            **extra,
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


@login_required
@require_POST
def withdraw_rival(request: HttpRequest, pk: int, deal: int) -> HttpResponse:
    """Your team accepts the stored numbers of a deal it entered differently."""
    game = _game(pk)
    rival = get_object_or_404(Deal, pk=deal, game=game, is_rival=True)
    try:
        rival_withdraw(rival=rival, user=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("Done: deal %(n)s stands as it was first entered.") % {"n": rival.number}
        )
    return redirect("league:game", pk=game.pk)


@login_required
@require_POST
def withdraw_dispute(request: HttpRequest, pk: int, dispute: int) -> HttpResponse:
    """The team that raised a dispute takes it back."""
    game = _game(pk)
    found = get_object_or_404(Dispute, pk=dispute, game=game)
    try:
        dispute_withdraw(dispute=found, user=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Your dispute is withdrawn."))
    return redirect("league:game", pk=game.pk)
