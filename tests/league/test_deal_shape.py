"""The deal shape is declared once (``league.kernel.entries.DEAL_FIELDS``): every place that
reads or writes a whole deal names the same fields, in the same order."""

from __future__ import annotations

from league.api.serializers import DealRequestSerializer, DealSerializer
from league.kernel.api import DEAL_REQUEST_FIELDS
from league.kernel.entries import DEAL_FIELDS, normalise
from league.models import Deal
from league.selectors.games import stored_deal
from scoring.variants import VARIANTS
from tests.factories import plain_deal


def test_the_deal_reader_returns_the_declared_fields_in_order():
    normal = normalise(plain_deal(0), variant=VARIANTS["partnership-121"])
    assert tuple(normal) == DEAL_FIELDS


def test_a_stored_deal_reads_back_in_the_same_shape():
    assert tuple(stored_deal(Deal(dealer=0, pegging=[0, 0], shows={}))) == DEAL_FIELDS


def test_the_api_shows_and_accepts_the_declared_fields():
    shown = [name for name in DealSerializer.Meta.fields if name in DEAL_FIELDS]
    assert tuple(shown) == DEAL_FIELDS
    # The schema documents what the door reads: the envelope and the one deal shape.
    assert tuple(DealRequestSerializer().fields) == ("key", "number", *DEAL_FIELDS)
    assert frozenset(DealRequestSerializer().fields) == DEAL_REQUEST_FIELDS


def test_a_deals_answer_has_the_schemas_fields_in_order():
    """The answer is built by one function, not field by field: it still says every field the
    schema declares, in that order."""
    deal = Deal(pk=1, game_id=1, number=1, dealer=0, pegging=[0, 0], shows={}, home_after=3)
    deal.away_after = 0
    answer = DealSerializer(deal, context={"target": 121}).data
    assert list(answer) == DealSerializer.Meta.fields


SUBMITTED = [
    plain_deal(0),
    {"dealer": 1, "pegging": {"0": 2, 1: 3}, "shows": {" 2": 4, "0": 0}, "heels": None},
    {"dealer": 3, "starter": "JH", "pegging": [0, 2], "shows": {}, "crib": 0},
    {
        "dealer": 2,
        "starter": "10D",
        "heels": False,
        "pegging": [2, 0],
        "shows": {"0": 2, "1": 0, "2": 4, "3": 0},
        "crib": 0,
        "cards": {
            "0": ["2H", "3S", "9C", "KD"],
            "01": ["AH", "4S", "8C", "QD"],
            "crib": ["2D", "4D", "8H", "QC"],
            "3": [],
        },
    },
    {"dealer": 0, "cards": {}, "starter": ""},
]


def test_one_reading_gives_the_stored_form_the_scorers_entry_and_the_fingerprint():
    """``read_deal`` builds the scorer's entry in the same pass as the stored form; a stored
    deal's entry (``to_entry``) is the same, and so is its fingerprint."""
    from league.kernel.entries import fingerprint, read_deal, to_entry

    variant = VARIANTS["partnership-121"]
    for data in SUBMITTED:
        read = read_deal(data, variant=variant, number=7)
        assert read.entry == to_entry(read.normal), data
        assert read.normal == normalise(data, variant=variant)
        assert read.fingerprint == fingerprint(read.normal, 7)
    assert read_deal(plain_deal(0), variant=variant).fingerprint is None
