"""The deal shape is declared once (``league.kernel.entries.DEAL_FIELDS``): every place that
reads or writes a whole deal names the same fields, in the same order."""

from __future__ import annotations

from league.api.serializers import DealEnvelopeSerializer, DealSerializer
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
    assert DealEnvelopeSerializer.allow_extra == DEAL_FIELDS
