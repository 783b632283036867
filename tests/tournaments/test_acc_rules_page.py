"""An event playing ACC cross-checking states Rule 12.2 on its rules page clause by clause, as
the event plays it: (a) to (g) from the rulebook, (h) and (i) marked as secondary sources'
readings, (h) worded from the event's own setting."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from tournaments import services

pytestmark = pytest.mark.django_db


def clauses_of(client, tournament, language="en"):
    """Clause id (T-8a...) -> its title, text and source on the rules page, tags removed."""
    response = client.get(
        reverse("tournaments:rules", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    body = unescape(response.content.decode())
    return {
        rule_id: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", entry)).strip()
        for rule_id, entry in re.findall(r'<dt id="(T-8[a-i])">(.*?)</dd>', body, re.S)
    }


@pytest.fixture
def acc_night(director):
    return services.tournament_create(user=director, name="Sanctioned Saturday", acc_rules=True)


def test_every_clause_of_rule_12_2_is_on_the_page_with_its_source(client, acc_night):
    rules = clauses_of(client, acc_night)
    assert sorted(rules) == [f"T-8{c}" for c in "abcdefghi"]
    for clause in "abcdefg":
        assert f"Source: the ACC's tournament rules, Rule 12.2({clause})" in rules[f"T-8{clause}"]
    for clause in "hi":
        assert f"a secondary source's reading of Rule 12.2({clause})" in rules[f"T-8{clause}"]
    assert "a qualifier's 21-point win against a 16-point loss is a 16-point win" in rules["T-8a"]
    assert "both card entries stand" in rules["T-8h"] and "On at this event" in rules["T-8h"]
    assert "whose card the rule changed is told" in rules["T-8i"]


def test_the_director_reads_no_harm_no_foul_turned_off(client, acc_night, director):
    services.tournament_update(user=director, tournament=acc_night, changes={"acc_no_harm": False})
    rules = clauses_of(client, acc_night)
    assert "Off at this event: (a) and (b) apply" in rules["T-8h"]


def test_without_acc_cross_checking_no_clause_is_stated(client, director):
    main = services.tournament_create(user=director, name="Open", kind="main")
    assert clauses_of(client, main) == {}


def test_the_clauses_read_in_french(client, acc_night):
    rules = clauses_of(client, acc_night, "fr")
    assert "Règle 12.2(h) de l'ACC" in rules["T-8h"], rules["T-8h"]
    assert "lecture d'une source secondaire" in rules["T-8i"], rules["T-8i"]
