"""Turning a deal as submitted (JSON from the API, a form, the admin or an archive) into the
scorer's ``DealEntry``, with strict types: scores are plain integers, nothing else."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.kernel.errors import ValidationFailed
from league.kernel.ids import number_from
from league.kernel.scoring_messages import scoring_message
from scoring.cards import Card
from scoring.errors import ScoringError
from scoring.game import DealEntry
from scoring.variants import Variant

# The deal shape: the fields of one deal, in this order, as a phone sends them, the API shows
# them, an archive writes them and ``normalise`` returns them. Declared here only.
DEAL_FIELDS = ("dealer", "starter", "heels", "pegging", "shows", "crib", "cards")

# What each number is, for the refusal: translated only when a number is refused (a season
# import normalises tens of thousands of deals; translating these each time was a third of it).
DEALER = gettext_lazy("The dealer's seat")
PEGGING = gettext_lazy("Pegging")
A_SHOW = gettext_lazy("A show")
THE_CRIB = gettext_lazy("The crib")


def _not_whole(field: str, what: object) -> ValidationFailed:
    """The refusal of a number that is not a JSON integer (no booleans, no "5", no 5.0, no
    "٣" or "５"), built only when one is refused."""
    return ValidationFailed(
        _("%(what)s must be a whole number like 12.") % {"what": what}, field=field
    )


def _card(value: Any, field: str) -> Card:
    if not isinstance(value, str):
        raise ValidationFailed(_("Write a card like 5H, 10H or JC."), field=field)
    try:
        return Card.from_str(value)
    except ScoringError as exc:
        raise ValidationFailed(scoring_message(exc), field=field) from None


@dataclass(frozen=True, slots=True)
class Submitted:
    """A submitted deal read once: its stored form, the scorer's entry, and its fingerprint as
    deal ``number`` (None when no number was given)."""

    normal: dict[str, Any]
    entry: DealEntry
    fingerprint: str | None


def read_deal(data: Mapping[str, Any], *, variant: Variant, number: int | None = None) -> Submitted:
    """A submitted deal read in one pass, its fields checked in ``DEAL_FIELDS``' order (the
    first wrong one refused, naming it; unknown fields refused): its canonical stored form (seat
    keys as text, cards as the scorer writes them), the scorer's ``DealEntry`` built from the
    same values (each card parsed once) and, given the deal's ``number``, its fingerprint.

    ``to_entry`` makes the same entry from a deal already stored (tests/league/test_deal_shape.py
    holds the two to the same answer)."""
    if not isinstance(data, Mapping):
        raise ValidationFailed(_("A deal must be a JSON object."))
    unknown = sorted(set(data) - set(DEAL_FIELDS) - {"key", "number"})
    if unknown:
        raise ValidationFailed(
            _("Unknown field %(name)s.") % {"name": unknown[0]}, field=unknown[0]
        )
    if "dealer" not in data:
        raise ValidationFailed(_("Say who dealt."), field="dealer")
    dealer = data["dealer"]
    if type(dealer) is not int:
        raise _not_whole("dealer", DEALER)
    if not 0 <= dealer < variant.players:
        raise ValidationFailed(_("There is no seat %(seat)s.") % {"seat": dealer}, field="dealer")

    starter = data.get("starter") or None
    starter_card = None
    if starter is not None:
        starter_card = _card(starter, "starter")
        starter = str(starter_card)
    heels = data.get("heels")
    if heels is not None and not isinstance(heels, bool):
        raise ValidationFailed(_("His heels is yes or no."), field="heels")

    raw_pegging = data.get("pegging")
    if isinstance(raw_pegging, Mapping):
        raw_pegging = [raw_pegging.get(str(s), raw_pegging.get(s, 0)) for s in range(variant.sides)]
    if raw_pegging is None:
        raw_pegging = [0] * variant.sides
    if not isinstance(raw_pegging, list | tuple) or len(raw_pegging) != variant.sides:
        raise ValidationFailed(
            _("Give the pegging for each of the %(n)s sides.") % {"n": variant.sides},
            field="pegging",
        )
    pegging: list[int] = []
    for side, points in enumerate(raw_pegging):
        if type(points) is not int:
            raise _not_whole(f"pegging.{side}", PEGGING)
        pegging.append(points)

    raw_shows = data.get("shows") or {}
    if not isinstance(raw_shows, Mapping):
        raise ValidationFailed(_("Shows are given per seat."), field="shows")
    shows: dict[str, int] = {}
    shows_by_seat: dict[int, int] = {}  # the scorer's
    for seat_key, points in raw_shows.items():
        try:
            seat = int(seat_key)
        except (TypeError, ValueError):
            raise ValidationFailed(
                _("There is no seat %(seat)s.") % {"seat": seat_key}, field="shows"
            ) from None
        if not 0 <= seat < variant.players or str(seat) != str(seat_key).strip():
            raise ValidationFailed(
                _("There is no seat %(seat)s.") % {"seat": seat_key}, field="shows"
            )
        if type(points) is not int:
            raise _not_whole(f"shows.{seat}", A_SHOW)
        shows[str(seat)] = shows_by_seat[seat] = points

    crib = data.get("crib")
    if crib is not None and type(crib) is not int:
        raise _not_whole("crib", THE_CRIB)

    cards = data.get("cards") or None
    hands: dict[int, tuple[Card, ...]] = {}
    crib_cards = None
    if cards is not None:
        if not isinstance(cards, Mapping):
            raise ValidationFailed(_("Cards are given per seat and for the crib."), field="cards")
        clean: dict[str, list[str]] = {}
        for who, hand in cards.items():
            who = str(who)
            seat_number = number_from(who, digits=2)
            if who != "crib" and (seat_number is None or not 0 <= seat_number < variant.players):
                raise ValidationFailed(
                    _("There is no seat %(seat)s.") % {"seat": who}, field="cards"
                )
            if not isinstance(hand, list | tuple):
                raise ValidationFailed(_("Give cards as a list."), field=f"cards.{who}")
            parsed = tuple(_card(c, f"cards.{who}") for c in hand)
            clean[who] = [str(card) for card in parsed]
            if who == "crib":
                crib_cards = parsed
            elif seat_number is not None:
                hands[seat_number] = parsed
        cards = clean
    normal = {
        "dealer": dealer,
        "starter": starter,
        "heels": heels,
        "pegging": pegging,
        "shows": shows,
        "crib": crib,
        "cards": cards,
    }
    entry = DealEntry(
        dealer=dealer,
        starter=starter_card,
        heels=heels,
        pegging=tuple(pegging),
        shows=shows_by_seat,
        crib=crib,
        hands=hands or None,
        crib_cards=crib_cards,
    )
    return Submitted(normal, entry, None if number is None else fingerprint(normal, number))


def normalise(data: Mapping[str, Any], *, variant: Variant) -> dict[str, Any]:
    """The canonical stored form of a deal (``read_deal``'s): seat keys as strings, unknown
    fields refused."""
    return read_deal(data, variant=variant).normal


def fingerprint(normal: Mapping[str, Any], number: int) -> str:
    """A hash of what was submitted, to tell a retry from a different deal under the same key."""
    payload = json.dumps({"number": number, **normal}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


def to_entry(normal: Mapping[str, Any]) -> DealEntry:
    """The scorer's view of a deal already read (stored, or ``normalise``'s): what
    ``read_deal`` gives as ``entry`` when it reads one."""
    cards = normal.get("cards") or None
    hands = None
    crib_cards = None
    if cards:
        hands = {
            int(who): tuple(Card.from_str(c) for c in hand)
            for who, hand in cards.items()
            if who != "crib"
        } or None
        if "crib" in cards:
            crib_cards = tuple(Card.from_str(c) for c in cards["crib"])
    return DealEntry(
        dealer=normal["dealer"],
        starter=Card.from_str(normal["starter"]) if normal.get("starter") else None,
        heels=normal.get("heels"),
        pegging=tuple(normal["pegging"]),
        shows={int(seat): points for seat, points in normal["shows"].items()},
        crib=normal.get("crib"),
        hands=hands,
        crib_cards=crib_cards,
    )
