"""The cards players recorded as dealt to them travel in the season archive: written by export,
checked and stored by import, exactly; an archive without them imports as before."""

from __future__ import annotations

import copy
import json

import pytest

from league.models import DealtCards, DealtHand, League
from league.services.archive import ArchiveRefused, export_season
from league.services.archive_import import import_season
from tests.factories import make_archive, row_counts, wipe_league_data

pytestmark = pytest.mark.django_db


def _with_dealt(doc: dict) -> tuple[dict, list[str], list[str]]:
    """The archive with the first deal of the first game carrying what its first two seats were
    dealt: each one's show and a card of the crib (the crib holds one card from each player)."""
    doc = copy.deepcopy(doc)
    doc["league"]["dealt_cards"] = "asked"
    game = doc["weeks"][0]["matches"][0]["games"][0]
    deal = game["deals"][0]
    first, second = game["seats"][0], game["seats"][1]
    crib = deal["cards"]["crib"]
    dealt_first = [*deal["cards"][first], crib[0]]
    dealt_second = [*deal["cards"][second], crib[1]]
    deal["dealt"] = {first: dealt_first, second: dealt_second}
    return doc, dealt_first, dealt_second


def test_an_archive_with_cards_dealt_imports_them_for_the_players_in_those_seats():
    doc, dealt_first, dealt_second = _with_dealt(make_archive())
    season = import_season(doc)
    assert season.league.dealt_cards == DealtCards.ASKED
    game = doc["weeks"][0]["matches"][0]["games"][0]
    rows = list(DealtHand.objects.order_by("seat").select_related("player"))
    assert [(h.number, h.seat, h.player.name, h.cards) for h in rows] == [
        (1, 0, game["seats"][0], dealt_first),
        (1, 1, game["seats"][1], dealt_second),
    ]


def test_the_export_writes_the_cards_dealt_and_the_setting_and_the_round_trip_is_exact():
    doc, _first, _second = _with_dealt(make_archive())
    exported = export_season(import_season(doc)).archive
    assert exported["league"]["dealt_cards"] == "asked"
    first_game = exported["weeks"][0]["matches"][0]["games"][0]
    assert (
        first_game["deals"][0]["dealt"]
        == doc["weeks"][0]["matches"][0]["games"][0]["deals"][0]["dealt"]
    )
    # only the deal that has them carries the key
    assert [("dealt" in d) for d in first_game["deals"]].count(True) == 1
    before = sorted((h.game.number, h.number, h.seat, h.cards) for h in DealtHand.objects.all())
    text = json.dumps(exported)
    wipe_league_data()
    again = import_season(json.loads(text))
    after = sorted((h.game.number, h.number, h.seat, h.cards) for h in DealtHand.objects.all())
    assert after == before
    assert export_season(again).archive == exported


def test_an_archive_without_cards_dealt_imports_as_before_with_the_setting_off():
    doc = make_archive()
    assert "dealt_cards" not in doc["league"]
    season = import_season(doc)
    assert not DealtHand.objects.exists()
    assert season.league.dealt_cards == DealtCards.OFF
    exported = export_season(season).archive
    assert "dealt_cards" not in exported["league"]
    assert not any(
        "dealt" in deal
        for week in exported["weeks"]
        for match in week["matches"]
        for game in match["games"]
        for deal in game["deals"]
    )


def test_an_existing_league_keeps_its_own_setting():
    League.objects.create(name="Sunday Pairs", dealt_cards=DealtCards.ALLOWED)
    doc, _first, _second = _with_dealt(make_archive())
    season = import_season(doc)
    assert season.league.dealt_cards == DealtCards.ALLOWED
    assert DealtHand.objects.count() == 2


@pytest.mark.parametrize(
    ("spoil", "words"),
    [
        (lambda deal, name, other: deal["dealt"][name].__setitem__(4, deal["cards"][other][0]),
         "was not dealt to you"),
        (lambda deal, name, other: deal["dealt"][name].pop(), "deals 5 cards, not 4"),
        (lambda deal, name, other: deal["dealt"].__setitem__("Zed", ["5H"]), "Zed"),
        (lambda deal, name, other: deal["dealt"].__setitem__(name, "5H 5D"), "a list of cards"),
    ],
)  # fmt: skip
def test_cards_dealt_that_disagree_with_the_deal_are_refused_saying_where(spoil, words):
    doc, _first, _second = _with_dealt(make_archive())
    game = doc["weeks"][0]["matches"][0]["games"][0]
    deal = game["deals"][0]
    spoil(deal, game["seats"][0], game["seats"][1])
    before = row_counts()
    with pytest.raises(ArchiveRefused) as info:
        import_season(doc)
    assert row_counts() == before
    assert "deal 1" in info.value.message and words in info.value.message, info.value.message


def test_a_league_setting_the_format_does_not_know_is_refused():
    doc = make_archive()
    doc["league"]["dealt_cards"] = "always"
    with pytest.raises(ArchiveRefused, match="off, allowed or asked"):
        import_season(doc)
