"""Score entry on a phone: the page (its JavaScript sends deals to the REST API, keeping them
on the phone while offline, and corrects the deals its team entered), the same page's data as
JSON for the script to keep up with the server, the data of the judge's correction form (the
same deal form, in the admin), and a small JSON endpoint that counts a hand from its cards."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from league import checks
from league.kernel.permissions import Action, can
from league.kernel.scoring_messages import scoring_message, show_as_dict
from league.models import Game
from league.selectors.entry import entry_data
from scoring.cards import Card, parse_cards
from scoring.errors import ScoringError
from scoring.show import score_show


@login_required
def enter(request: HttpRequest, pk: int) -> HttpResponse:
    """The entry page, or its data as JSON (``?format=json``) for the script to catch up."""
    game = get_object_or_404(
        Game.objects.filter(match__week__season__importing=False)
        .select_related("match__week__season__league", "match__home", "match__away")
        .prefetch_related("seats__player"),
        pk=pk,
    )
    # The page is for the two teams (and league admins entering a paper sheet); what it lets
    # each one do (enter the next deal, correct one, settle a rival entry) is asked of can().
    # A voided game's page still opens: entries the server refused stay there with their reason.
    allowed = can(request.user, Action.KEEP_SCORE, game.match)
    data = entry_data(game, user=request.user) if allowed else None
    if request.GET.get("format") == "json":
        if data is None:
            return JsonResponse({"detail": checks.ENTER.message()}, status=403)
        return JsonResponse(data)
    context = {"game": game, "match": game.match, "allowed": allowed, "data": data}
    return render(request, "league/enter.html", context, status=200 if allowed else 403)


@require_GET
def score_show_json(request: HttpRequest) -> JsonResponse:
    """``?hand=5H 5D 5S JC&starter=5C&crib=1``: the scorer's count and breakdown, or an error."""
    try:
        hand = parse_cards(request.GET.get("hand", ""))
        starter = Card.from_str(request.GET.get("starter", "").strip())
        show = score_show(hand, starter, crib=request.GET.get("crib") in ("1", "true"))
    except ScoringError as exc:
        return JsonResponse({"detail": scoring_message(exc)}, status=400)
    except ValueError:
        return JsonResponse({"detail": _("Write cards like 5H, 10D or JC.")}, status=400)
    return JsonResponse(show_as_dict(show))
