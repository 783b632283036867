"""Who is coming: a player's one tap (in, out, maybe) from the home page or a match page, and
the signed link from a reminder, which works without signing in. The service decides."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.kernel.errors import DomainError
from league.kernel.ids import number_from
from league.kernel.parsers import local_path
from league.models import Answer, Player, Week
from league.selectors.availability import player_of
from league.services.availability import (
    availability_answer,
    availability_answer_by_link,
    availability_from_token,
)


def _back(request: HttpRequest) -> str:
    """Where to go after the tap: ``next`` when it is a page of this site, else home."""
    return local_path(request.POST.get("next"), host=request.get_host(), secure=request.is_secure())


def _said(answer: str) -> str:
    said: dict[str, str] = {
        Answer.IN.value: _("You are in for that night."),
        Answer.OUT.value: _("You are out that night: your captain can see it."),
        Answer.MAYBE.value: _("Maybe: answer again when you know."),
    }
    return said.get(answer, "")


@login_required
@require_POST
def answer(request: HttpRequest, pk: int) -> HttpResponse:
    """One tap: the signed-in player's answer for a night (or, with ``player``, a teammate's
    answer given by their captain)."""
    week = get_object_or_404(Week.objects.select_related("season"), pk=pk)
    asked = number_from(request.POST.get("player") or "")
    player = (
        Player.objects.filter(pk=asked).first() if asked is not None else player_of(request.user)
    )
    if player is None:
        messages.error(request, _("Your login is not linked to a player of the league."))
        return redirect(_back(request))
    try:
        row = availability_answer(
            user=request.user, player=player, week=week, answer=request.POST.get("answer", "")
        )
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        if player.user_id == request.user.pk:
            messages.success(request, _said(row.answer))
        else:
            messages.success(
                request,
                _("%(player)s: %(answer)s.")
                % {"player": player.name, "answer": row.get_answer_display()},
            )
    return redirect(_back(request))


def by_link(request: HttpRequest, token: str) -> HttpResponse:
    """The page a reminder links to: the night, the player's answer, three buttons. Opening it
    changes nothing (mail scanners open links); a tap (POST) answers."""
    try:
        player, week = availability_from_token(token)
    except DomainError as exc:
        return render(
            request, "league/availability_link.html", {"problem": exc.message}, status=400
        )
    status = 200
    if request.method == "POST":
        try:
            row = availability_answer_by_link(token=token, answer=request.POST.get("answer", ""))
        except DomainError as exc:
            messages.error(request, exc.message)
            status = 400
        else:
            messages.success(request, _said(row.answer))
            return redirect(request.path)
    current = player.availability.filter(week=week).values_list("answer", flat=True).first()
    match = (
        week.matches.filter(home__players=player).first()
        or week.matches.filter(away__players=player).first()
    )
    return render(
        request,
        "league/availability_link.html",
        {
            "player": player,
            "week": week,
            "answer": current or "",
            "answer_label": Answer(current).label if current else "",
            "match": match,
        },
        status=status,
    )
