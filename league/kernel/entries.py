"""Turning a deal as submitted (JSON from the API, a form, the admin or an archive) into the
scorer's ``DealEntry``, with strict types: scores are plain integers, nothing else."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
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


def _int(value: Any, field: str, what: object) -> int:
    # JSON integers only: no booleans, no "5", no 5.0, no "٣" or "５".
    if type(value) is not int:
        raise ValidationFailed(
            _("%(what)s must be a whole number like 12.") % {"what": what}, field=field
        )
    return value


def _card(value: Any, field: str) -> Card:
    if not isinstance(value, str):
        raise ValidationFailed(_("Write a card like 5H, 10H or JC."), field=field)
    try:
        return Card.from_str(value)
    except ScoringError as exc:
        raise ValidationFailed(scoring_message(exc), field=field) from None


def normalise(data: Mapping[str, Any], *, variant: Variant) -> dict[str, Any]:
    """The canonical stored form of a deal: seat keys as strings, unknown fields refused."""
    if not isinstance(data, Mapping):
        raise ValidationFailed(_("A deal must be a JSON object."))
    unknown = sorted(set(data) - set(DEAL_FIELDS) - {"key", "number"})
    if unknown:
        raise ValidationFailed(
            _("Unknown field %(name)s.") % {"name": unknown[0]}, field=unknown[0]
        )
    if "dealer" not in data:
        raise ValidationFailed(_("Say who dealt."), field="dealer")
    dealer = _int(data["dealer"], "dealer", DEALER)
    if not 0 <= dealer < variant.players:
        raise ValidationFailed(_("There is no seat %(seat)s.") % {"seat": dealer}, field="dealer")

    starter = data.get("starter") or None
    if starter is not None:
        starter = str(_card(starter, "starter"))
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
    pegging = [_int(v, f"pegging.{side}", PEGGING) for side, v in enumerate(raw_pegging)]

    raw_shows = data.get("shows") or {}
    if not isinstance(raw_shows, Mapping):
        raise ValidationFailed(_("Shows are given per seat."), field="shows")
    shows: dict[str, int] = {}
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
        shows[str(seat)] = _int(points, f"shows.{seat}", A_SHOW)

    crib = data.get("crib")
    if crib is not None:
        crib = _int(crib, "crib", THE_CRIB)

    cards = data.get("cards") or None
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
            clean[who] = [str(_card(c, f"cards.{who}")) for c in hand]
        cards = clean
    return {
        "dealer": dealer,
        "starter": starter,
        "heels": heels,
        "pegging": pegging,
        "shows": shows,
        "crib": crib,
        "cards": cards,
    }


def fingerprint(normal: Mapping[str, Any], number: int) -> str:
    """A hash of what was submitted, to tell a retry from a different deal under the same key."""
    payload = json.dumps({"number": number, **normal}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


def to_entry(normal: Mapping[str, Any]) -> DealEntry:
    """The scorer's view of a normalised deal."""
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
