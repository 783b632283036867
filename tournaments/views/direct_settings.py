"""The event's settings in the director's workspace (``/direct/nights/<pk>/settings/``): the
cut, the tie-break chain, the qualifying's games per opponent and kept-apart pairs, the ACC
cross-check and Rule 12.2(h), the bracket (single or double elimination, the grand final's
reset) and its best-of round by round. A thin form: ``tournament_update`` checks and stores,
and a refusal is shown beside its field with nothing changed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from contest.tiebreaks import TOURNAMENT_CHAINS
from league.kernel.errors import DomainError
from tournaments import selectors, services
from tournaments.models import BracketFormat, Tournament

CHAIN_LABELS = {
    "house": gettext_lazy("Pegboard's: games won, spread, then a draw"),
    "acc": gettext_lazy(
        "The ACC's: games won, net spread, plus points, head to head, then a one-game playoff"
    ),
}
KEEP_AS_IS = "as-is"


def keep_apart_lines(text: str) -> list[list[str]]:
    """``Ann, Bob`` a line (or ``Ann / Bob``, ``Ann & Bob``) as pairs of names; a line that is
    not two names is kept whole, for the service to refuse in its words.

    >>> keep_apart_lines("Ann, Bob\\n\\n Cy / Dee ")
    [['Ann', 'Bob'], ['Cy', 'Dee']]
    """
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        for sep in (",", "/", "&", ";"):
            if sep in line:
                out.append([part.strip() for part in line.split(sep)])
                break
        else:
            out.append([line.strip()])
    return out


class SettingsForm(forms.Form):
    qualify_one_in = forms.IntegerField(
        label=gettext_lazy("One qualifier in"), min_value=1, max_value=64
    )
    tiebreak_chain = forms.ChoiceField(label=gettext_lazy("Tie-breaks after game points"))
    games_per_opponent = forms.TypedChoiceField(
        label=gettext_lazy("Games against each opponent"),
        coerce=int,
        choices=[
            (1, gettext_lazy("one")),
            (2, gettext_lazy("two in a row, first deal alternating")),
        ],
    )
    keep_apart = forms.CharField(
        label=gettext_lazy("Kept apart at the tables"),
        help_text=gettext_lazy("One pair a line: two entrants' names separated by a comma."),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    acc_rules = forms.BooleanField(
        label=gettext_lazy("Settle two cards that disagree by ACC Rule 12.2 where it can"),
        required=False,
    )
    acc_no_harm = forms.BooleanField(
        label=gettext_lazy("ACC Rule 12.2(h): no harm, no foul"), required=False
    )
    bracket_format = forms.ChoiceField(label=gettext_lazy("Bracket"), choices=BracketFormat.choices)
    grand_final_reset = forms.BooleanField(
        label=gettext_lazy(
            "Double elimination: a deciding match if the losers' bracket winner takes the "
            "grand final"
        ),
        required=False,
    )
    playoff_best_of = forms.TypedChoiceField(
        label=gettext_lazy("Playoff matches best of"),
        coerce=int,
        choices=[(n, str(n)) for n in (1, 3, 5, 7)],
    )
    playoff_best_of_rounds = forms.CharField(
        label=gettext_lazy("Best of, round by round"),
        help_text=gettext_lazy(
            "Optional: the final last, for example 1,3,3,5 (earlier rounds play the first "
            "number). Empty: every match as above."
        ),
        required=False,
        max_length=40,
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices: list[tuple[str, Any]] = [(key, CHAIN_LABELS[key]) for key in TOURNAMENT_CHAINS]
        if tuple(tournament.tiebreaks or ()) not in TOURNAMENT_CHAINS.values():
            choices.append(
                (
                    KEEP_AS_IS,
                    _("as set now: %(chain)s")
                    % {"chain": ", ".join(str(k) for k in tournament.tiebreaks or ())},
                )
            )
        self.fields["tiebreak_chain"].choices = choices  # type: ignore[attr-defined]


def _initial(t: Tournament) -> dict[str, Any]:
    chain = next(
        (k for k, v in TOURNAMENT_CHAINS.items() if tuple(t.tiebreaks or ()) == v), KEEP_AS_IS
    )
    return {
        "qualify_one_in": t.qualify_one_in,
        "tiebreak_chain": chain,
        "games_per_opponent": t.games_per_opponent,
        "keep_apart": "\n".join(", ".join(p) for p in t.keep_apart or ()),
        "acc_rules": t.acc_rules,
        "acc_no_harm": t.acc_no_harm,
        "bracket_format": t.bracket_format,
        "grand_final_reset": t.grand_final_reset,
        "playoff_best_of": t.playoff_best_of,
        "playoff_best_of_rounds": t.playoff_best_of_rounds,
    }


@login_required
@require_http_methods(["GET", "POST"])
def night_settings(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    allowed = selectors.directs_event(request.user, night)
    if not allowed:
        messages.error(request, _("Only this club's directors and league admins run its nights."))
        return redirect("direct:home")
    form = SettingsForm(
        request.POST if request.method == "POST" else None,
        initial=_initial(night),
        tournament=night,
    )
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        chain = data.pop("tiebreak_chain")
        if chain != KEEP_AS_IS:
            data["tiebreaks"] = list(TOURNAMENT_CHAINS[chain])
        data["keep_apart"] = keep_apart_lines(data["keep_apart"])
        try:
            services.tournament_update(user=request.user, tournament=night, changes=data)
        except DomainError as exc:
            field = getattr(exc, "field", None)
            form.add_error(field if field in form.fields else None, exc.message)
        else:
            messages.success(request, _("The event's settings are saved."))
            return redirect("direct:night", pk=night.pk)
    return render(request, "tournaments/direct/settings.html", {"night": night, "form": form})
