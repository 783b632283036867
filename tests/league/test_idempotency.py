"""The key that makes a write safe to send twice is checked by one helper
(``league.kernel.idempotency``), which deals, game starts and scorecards all call."""

from __future__ import annotations

from pathlib import Path

import pytest

from league.kernel.errors import Conflict, ValidationFailed
from league.kernel.idempotency import checked_key, replay, stored_by_key
from league.models import Deal

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("key", ["", "x" * 65, 12, ["k"]])
def test_a_key_that_is_not_short_text_is_refused_naming_the_key(key):
    with pytest.raises(ValidationFailed, match="1 to 64 characters") as refused:
        checked_key(key)
    assert refused.value.field == "key"


@pytest.mark.parametrize("key", [None, "k", "x" * 64])
def test_no_key_or_short_text_is_taken_as_sent(key):
    assert checked_key(key) == key


def test_the_same_request_gets_back_what_its_key_stored():
    stored = Deal(number=3)
    assert replay(stored, same=lambda deal: deal.number == 3, conflict="Another.") is stored


def test_a_new_key_lets_the_writer_go_on():
    assert replay(None, same=lambda deal: True, conflict="Another.") is None


def test_a_key_that_stored_something_else_is_a_conflict_on_the_key():
    with pytest.raises(Conflict, match="Another") as refused:
        replay(Deal(number=3), same=lambda deal: False, conflict="Another.", current=lambda d: 3)
    assert refused.value.field == "key"
    assert refused.value.extra == {"current": 3}


def test_after_a_race_a_key_that_stored_something_else_leaves_the_refusal_to_the_writer():
    assert replay(Deal(number=3), same=lambda deal: False, conflict=None) is None


def test_no_key_looks_nothing_up(db, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert stored_by_key(Deal, None) is None


def test_the_keys_refusal_is_written_once_in_the_code():
    sources = [
        path
        for package in ("league", "tournaments")
        for path in (ROOT / package).rglob("*.py")
        if "The key must be text of 1 to 64 characters." in path.read_text()
    ]
    assert [p.relative_to(ROOT).as_posix() for p in sources] == ["league/kernel/idempotency.py"]
