"""Forms of the web pages. They only read input; the services decide what is allowed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from league.kernel.scoring_messages import scoring_message
from league.models import Match, Player
from league.models.disputes import CLAIM_LIMIT
from league.selectors.subs import subs_of
from scoring.discard import dealt_cards
from scoring.errors import ScoringError
from scoring.variants import VARIANTS


def seat_label(seat: int) -> str:
    return _("Seat %(n)s") % {"n": seat + 1}


class StartGameForm(forms.Form):
    """Who sits where, clockwise (partners opposite), and who deals first."""

    first_dealer = forms.TypedChoiceField(label=_("First dealer"), coerce=int, initial=0)
    # Made when the form is drawn: pressing "Start" twice (or a resent request) starts one game.
    key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = match.week.season.game_variant.players
        home = list(match.home.players.all())
        away = list(match.away.players.all())
        choices: list[tuple[Any, Any]] = [
            (match.home.name, [(p.pk, p.name) for p in home]),
            (match.away.name, [(p.pk, p.name) for p in away]),
        ]
        # The season's sub list, for an absent partner (``game_start`` says where one may sit).
        self.subs = subs_of(match.week.season_id)
        if self.subs:
            choices.append((_("Subs"), [(p.pk, p.name) for p in self.subs]))
        # Clockwise, teams alternating, so partners sit opposite: home, away, home, away.
        defaults = [(home if seat % 2 == 0 else away)[seat // 2 :][:1] for seat in range(players)]
        self.seat_count = players
        for seat in range(players):
            self.fields[f"seat_{seat}"] = forms.TypedChoiceField(
                label=seat_label(seat),
                choices=choices,
                coerce=int,
                initial=defaults[seat][0].pk if defaults[seat] else None,
            )
        first_dealer = self.fields["first_dealer"]
        assert isinstance(first_dealer, forms.ChoiceField)
        first_dealer.choices = [(seat, seat_label(seat)) for seat in range(players)]
        self.order_fields([*(f"seat_{s}" for s in range(players)), "first_dealer"])

    def seats(self) -> list[Player | int | str]:
        return [self.cleaned_data[f"seat_{seat}"] for seat in range(self.seat_count)]


class RejectForm(forms.Form):
    """The other team refuses a finished game: what they think is wrong, optionally which deal."""

    claim = forms.CharField(
        label=_("What is wrong?"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=CLAIM_LIMIT,
        help_text=_("A judge reads this. Say which numbers you think are wrong and why."),
    )
    deal_number = forms.IntegerField(
        label=_("Deal (optional)"), required=False, min_value=1, max_value=99
    )


class ForfeitForm(forms.Form):
    """A forfeit of the match: which of its two teams forfeits, and why (the service checks
    both; the form only reads them)."""

    team = forms.ChoiceField(label=_("Which team forfeits?"), widget=forms.RadioSelect)
    reason = forms.CharField(
        label=_("Why"),
        max_length=CLAIM_LIMIT,
        widget=forms.TextInput(attrs={"placeholder": _("They did not turn up by 7:30.")}),
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["team"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(match.home_id, match.home.name), (match.away_id, match.away.name)]


class ForfeitUndoForm(forms.Form):
    reason = forms.CharField(label=_("Why is the forfeit undone?"), max_length=CLAIM_LIMIT)


class PostponeForm(forms.Form):
    """The date a match is played instead, and why (the service checks the deadline)."""

    date = forms.DateField(
        label=_("Play it on"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    reason = forms.CharField(label=_("Why"), max_length=CLAIM_LIMIT)


class NightCancelForm(forms.Form):
    reason = forms.CharField(label=_("Why is the night cancelled?"), max_length=CLAIM_LIMIT)


# The discard analyser's games, in the page's language (the scorer names them in English).
DISCARD_GAMES: list[tuple[str, Any]] = [
    ("singles-121", _("Two-player six-card (6 dealt, 2 to the crib)")),
    ("partnership-121", _("Four-player partnership (5 dealt, 1 to the crib)")),
    ("three-player-121", _("Three-player (5 dealt, 1 to the crib, 1 from the deck)")),
    ("five-card-61", _("Five-card (5 dealt, 2 to the crib)")),
    ("seven-card-181", _("Seven-card (7 dealt, 2 to the crib)")),
]
assert sorted(k for k, _label in DISCARD_GAMES) == sorted(VARIANTS), "every game the scorer knows"


class DiscardForm(forms.Form):
    """The cards dealt and whose crib it is, for the discard analyser (page and API alike).

    ``crib``: ``mine`` (I deal), ``partner`` (my partner deals: still my side's crib) or
    ``theirs``. The analysis itself is :func:`scoring.discard.analyse_discards`.
    """

    variant = forms.ChoiceField(
        label=_("The game played"), choices=DISCARD_GAMES, initial="singles-121", required=False
    )
    cards = forms.CharField(
        label=_("The cards you were dealt"),
        max_length=80,
        help_text=_("Type them like 5H 10D JC KS, or tap them below."),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )
    crib = forms.ChoiceField(
        label=_("Whose crib?"),
        choices=[
            ("mine", _("Mine: I deal")),
            ("partner", _("My side's: my partner deals")),
            ("theirs", _("The other side's")),
        ],
        initial="mine",
        widget=forms.RadioSelect,
        required=False,
    )

    def clean_variant(self) -> str:
        return str(self.cleaned_data.get("variant") or "singles-121")  # the two-handed game

    def clean_crib(self) -> str:
        return str(self.cleaned_data.get("crib") or "mine")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        variant, text, crib = data.get("variant"), data.get("cards"), data.get("crib")
        if variant is None or text is None or crib is None:
            return data
        if crib == "partner" and VARIANTS[variant].players != 4:
            self.add_error("crib", _("Only the four-player game has a partner to deal."))
            return data
        try:
            data["dealt"] = dealt_cards(text, variant=variant)
        except ScoringError as error:
            self.add_error("cards", scoring_message(error))
        data["own_crib"] = crib != "theirs"
        return data
