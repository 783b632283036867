"""A tournament's settings refused in the organiser's language: ``logic`` says its refusals in
English with a code and values, the league says them again (``rules_message``)."""

from __future__ import annotations

import pytest
from django.utils import translation

from league.kernel.errors import ValidationFailed
from tournaments import services
from tournaments.logic import RulesError
from tournaments.rules_messages import MESSAGES, rules_message


def _refusal(director, night, language, **changes) -> ValidationFailed:
    with translation.override(language), pytest.raises(ValidationFailed) as refused:
        services.tournament_update(user=director, tournament=night, changes=changes)
    night.refresh_from_db()
    return refused.value


def test_an_unknown_tie_break_is_refused_in_french_and_changes_nothing(night, director):
    before = list(night.tiebreaks)
    refused = _refusal(director, night, "fr", tiebreaks=["spread", "luck"])
    assert refused.message == (
        "luck n'est pas un critère de départage ; les critères sont games_won, spread, skunks, "
        "plus_points, head_to_head, playoff, draw."
    )
    assert refused.field == "tiebreaks"
    assert night.tiebreaks == before


@pytest.mark.parametrize(
    ("changes", "field", "french"),
    [
        ({"playoff_best_of": 4}, "playoff_best_of", "un nombre impair de parties"),
        ({"target": 1}, "target", "au moins 2 points"),
        ({"qualify_one_in": 0}, "qualify_one_in", "au moins 1"),
    ],
)
def test_each_setting_refused_names_its_field_in_french(night, director, changes, field, french):
    refused = _refusal(director, night, "fr", **changes)
    assert french in refused.message and refused.field == field
    [(key, value)] = changes.items()
    assert getattr(night, key) != value
    assert _refusal(director, night, "en", **changes).message != refused.message


def test_every_refusal_of_the_rules_has_its_sentence():
    """A code that ``logic`` may raise has a translatable sentence here."""
    assert set(RulesError.ENGLISH) == set(MESSAGES)
    error = RulesError("best_of_not_odd", "playoff_best_of", value=4)
    with translation.override("en"):
        assert rules_message(error).endswith("not 4.")


def test_the_director_reads_the_refusal_in_french_in_the_admin(client, night, director):
    """The admin's tournament form: a best-of-4 playoff is refused in French, nothing stored."""
    from django.contrib.messages import get_messages
    from django.urls import reverse

    client.force_login(director)
    url = reverse("admin:tournaments_tournament_change", args=[night.pk])
    form = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").context["adminform"].form
    data = {}
    for name in form.fields:
        value = form[name].value()  # as the page shows it (the tie-breaks as JSON text)
        if value is not None:
            data[name] = value
    data["playoff_best_of"] = 4
    page = client.post(url, data, HTTP_ACCEPT_LANGUAGE="fr", follow=True)
    said = [str(m) for m in get_messages(page.wsgi_request)]
    assert said == [  # the refusal alone: no "modifié avec succès" beside it
        "Un match de la phase finale se joue au meilleur d'un nombre impair de parties "
        "(1, 3, 5...), pas 4."
    ]
    assert page.redirect_chain[-1][0] == url  # back on the form
    night.refresh_from_db()
    assert night.playoff_best_of == 3


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"skunk_margin": 0}, "skunk_margin"),
        ({"skunk_margin": 40, "double_skunk_margin": 30}, "double_skunk_margin"),
    ],
)
def test_skunk_margins_the_scorer_cannot_judge_are_refused(night, director, changes, field):
    """The skunk ladder is the scorer's (``contest.points``): margins it refuses never stand."""
    before = (night.skunk_margin, night.double_skunk_margin)
    refused = _refusal(director, night, "en", **changes)
    assert refused.field == field and "skunk" in refused.message
    assert (night.skunk_margin, night.double_skunk_margin) == before
