"""Texts the system writes into stored data read in the reader's language: the dispute a tap
raises from two rival entries is stored as a code and parameters, shown in French on the French
game page (claim and history line) and in English on the English one; a claim typed by hand
stays as typed; existing rows in the old English form are migrated, other text left alone."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps as django_apps
from django.test import Client
from django.utils import translation

from league.kernel.stored_texts import RIVAL_ENTRIES, parse_rival_claim, render
from league.models import AuditEntry, Deal, Dispute
from league.selectors.games import pending_rivals
from league.services.deals import deal_record
from league.services.disputes import dispute_raise
from tests.factories import game_deals, play

pytestmark = pytest.mark.django_db

migration = importlib.import_module("league.migrations.0018_stored_texts")


def _rival(game, ann, cat) -> Deal:
    deals = [{k: v for k, v in d.items() if k != "cards"} for d in game_deals(game)]
    play(game, ann, deals=3)
    theirs = {**deals[2], "shows": dict(deals[2]["shows"])}
    seat = next(iter(theirs["shows"]))
    theirs["shows"][seat] = 2 if theirs["shows"][seat] != 2 else 4
    deal_record(game=game, user=cat, number=3, data=theirs)
    return Deal.objects.get(game=game, number=3, is_rival=True)


def _page(game, user, language: str) -> str:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_a_dispute_from_rival_entries_reads_in_each_readers_language(game, ann, cat):
    rival = _rival(game, ann, cat)
    with translation.override("fr"):  # Cat's phone is in French: she sends the French text
        claim = pending_rivals(game)[0]["claim"]
    assert claim.startswith("La donne 3 a été saisie deux fois : ann a saisi")
    dispute = dispute_raise(game=game, user=cat, claim=claim, rival=rival)
    assert dispute.claim_code == RIVAL_ENTRIES and dispute.claim_params["n"] == 3

    french, english = _page(game, ann, "fr"), _page(game, ann, "en")
    assert "was entered twice: ann entered" not in french
    assert "<p>La donne 3 a été saisie deux fois : ann a saisi" in french  # the claim
    assert "Contestation sur la donne 3 : La donne 3 a été saisie deux fois" in french
    assert "<p>Deal 3 was entered twice: ann entered" in english
    assert "Dispute raised about deal 3: Deal 3 was entered twice: ann entered" in english
    assert "a été saisie" not in english


def test_a_claim_typed_by_hand_about_a_rival_entry_stays_as_typed(game, ann, cat):
    rival = _rival(game, ann, cat)
    dispute = dispute_raise(game=game, user=cat, claim="Dan's hand was 12, not 4.", rival=rival)
    assert (dispute.claim_code, dispute.claim_params) == ("", {})
    with translation.override("fr"):
        assert dispute.claim_text == "Dan's hand was 12, not 4."


def test_the_crib_word_is_translated_and_names_stay_data():
    params = {
        "n": 5,
        "a": "ann",
        "x": ["Nobs 6", "Dan 4", ["crib", 3]],
        "b": "cat",
        "y": ["Nobs 7"],
    }
    with translation.override("en"):
        english = render(RIVAL_ENTRIES, params)
    assert (
        english
        == "Deal 5 was entered twice: ann entered Nobs 6, Dan 4, crib 3, cat entered Nobs 7."
    )
    assert parse_rival_claim(english) == params
    assert render("", {}, "typed") == "typed"
    assert render(RIVAL_ENTRIES, {"n": 5}, "kept") == "kept"  # parameters that do not fit
    assert parse_rival_claim("Dan's hand in deal 5 was 24, not 4.") is None


def test_the_migration_reads_old_english_rows_and_leaves_other_text(game, ann, cat):
    rival = _rival(game, ann, cat)
    old = (
        "Deal 3 was entered twice: ann entered Fifteen Two 6, Ann 8, crib 4, "
        "cat entered Fifteen Two 6, Ann 2, crib 4."
    )
    raised = dispute_raise(game=game, user=cat, claim=old, rival=rival)
    typed = dispute_raise(game=game, user=ann, claim="Cat's crib was 8.", deal_number=2)
    # As rows written before this change were: no code, the English in the claim and history.
    Dispute.objects.filter(pk=raised.pk).update(claim_code="", claim_params={})
    for entry in AuditEntry.objects.filter(action="dispute_raise"):
        entry.after = {k: v for k, v in entry.after.items() if not k.startswith("claim_")}
        entry.save(update_fields=["after"])

    migration.forwards(django_apps, None)

    raised.refresh_from_db()
    typed.refresh_from_db()
    assert raised.claim_code == RIVAL_ENTRIES
    assert raised.claim_params["x"] == ["Fifteen Two 6", "Ann 8", ["crib", 4]]
    assert (typed.claim_code, typed.claim) == ("", "Cat's crib was 8.")
    with translation.override("fr"):
        assert raised.claim_text == (
            "La donne 3 a été saisie deux fois : ann a saisi Fifteen Two 6, Ann 8, crib 4, "
            "cat a saisi Fifteen Two 6, Ann 2, crib 4."
        )
    codes = sorted(
        e.after.get("claim_code", "") for e in AuditEntry.objects.filter(action="dispute_raise")
    )
    assert codes == ["", RIVAL_ENTRIES]


def test_recent_actions_name_each_object_in_the_readers_language(game, ann, cat, judge):
    """The admin's log stores an object's name in the language of whoever acted; the
    dashboard's "Recent actions" names it in the reader's."""
    from django.contrib.admin.models import CHANGE, LogEntry
    from django.contrib.contenttypes.models import ContentType

    play(game, ann, deals=2)
    dispute = dispute_raise(game=game, user=cat, claim="Cat's crib was 8.", deal_number=2)
    judge.is_staff = True
    judge.is_superuser = True
    judge.save()
    with translation.override("en"):
        english_name = str(dispute)
        LogEntry.objects.create(
            user=judge,
            content_type=ContentType.objects.get_for_model(dispute),
            object_id=str(dispute.pk),
            object_repr=english_name,
            action_flag=CHANGE,
            change_message="[]",
        )
    with translation.override("fr"):
        french_name = str(dispute)
    assert english_name.startswith("Dispute #") and french_name.startswith("Contestation")
    client = Client()
    client.force_login(judge)
    client.cookies["django_language"] = "fr"
    page = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Actions récentes" in page
    assert french_name in page
    assert english_name not in page


def test_a_sentence_the_system_stored_whole_reads_in_the_readers_language(game, ann, cat):
    """A ruling the system wrote ("The game was voided."), stored from a French request, reads
    in English on the English page and in French on the French one; a judge's own words stay."""
    from league.kernel.stored_texts import fixed

    play(game, ann, deals=2)
    dispute = dispute_raise(game=game, user=cat, claim="Cat's crib was 8.", deal_number=2)
    with translation.override("fr"):
        french = translation.gettext("The game was voided.")
    assert french != "The game was voided."
    Dispute.objects.filter(pk=dispute.pk).update(ruling=french)
    page = _page(game, ann, "en")
    assert "<p> The game was voided.</p>" in page
    assert f"<p> {french}</p>" in _page(game, ann, "fr")
    assert fixed("Dan's hand was 24.") == "Dan's hand was 24."
    with translation.override("en"):
        assert fixed(french) == "The game was voided."


# --- A deal correction's reason the system words: taking the other team's numbers,
# a judge's ruling.

reasons = importlib.import_module("league.migrations.0021_reason_codes")


def _api(user, language: str):
    from rest_framework.test import APIClient

    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    client.force_authenticate(user)
    return client


def _admin(user, language: str) -> Client:
    user.is_staff = user.is_superuser = True
    user.save()
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def _take(game, ann, entry, language="fr", **body):
    """Ann's phone taps "Accept their numbers": it sends a code and the entry, not a sentence."""
    from league.selectors.games import stored_deal

    sent = {"number": 3, "deal": stored_deal(entry), "reason_code": "took_rival", "rival": entry.pk}
    return _api(ann, language).post(
        f"/api/games/{game.pk}/corrections/", {**sent, **body}, format="json"
    )


def test_taking_the_other_teams_numbers_reads_in_each_readers_language(
    game, ann, cat, league_admin
):
    rival = _rival(game, ann, cat)
    answer = _take(game, ann, rival, language="fr")  # Ann's phone is in French
    assert answer.status_code == 201, answer.json()
    deal = Deal.objects.get(game=game, number=3, is_current=True)
    assert deal.shows == rival.shows
    assert (deal.reason_code, deal.reason_params) == (
        "took_rival",
        {"n": 3, "who": "cat", "rival": rival.pk},
    )
    assert deal.reason == "Took the numbers cat entered for deal 3."  # its words, as a record
    rival.refresh_from_db()
    assert rival.settled_at is not None  # the conflict is over

    # The game page's history, in each reader's language.
    french, english = _page(game, cat, "fr"), _page(game, cat, "en")
    assert "Nombres de cat repris pour la donne 3." in french
    assert "Took the numbers" not in french
    assert "Took the numbers cat entered for deal 3." in english
    # The API's ``reason`` (for whoever may read the season's rulings).
    for language, words in (
        ("fr", "Nombres de cat repris pour la donne 3."),
        ("en", "Took the numbers cat entered for deal 3."),
    ):
        rows = _api(league_admin, language).get(f"/api/games/{game.pk}/deals/").json()
        assert rows[2]["reason"] == words
    # The admin: the game's deals and the audit trail.
    admin = _admin(league_admin, "fr")
    page = admin.get(f"/admin/league/game/{game.pk}/change/").content.decode()
    assert "Nombres de cat repris pour la donne 3." in page and "Took the numbers" not in page
    trail = admin.get("/admin/league/auditentry/?action=deal_correct").content.decode()
    assert "Nombres de cat repris pour la donne 3." in trail and "Took the numbers" not in trail


def test_a_reason_code_the_server_cannot_check_is_refused_in_words_and_changes_nothing(
    game, ann, cat
):
    rival = _rival(game, ann, cat)
    deals = Deal.objects.count()
    unknown = _take(game, ann, rival, language="en", reason_code="because")
    assert unknown.status_code == 400
    assert "Pegboard does not know this reason" in str(unknown.json())
    no_entry = _take(game, ann, rival, language="en", rival=rival.pk + 1000)
    assert no_entry.status_code == 400
    assert "Deal 3 has no other entry to take the numbers of." in str(no_entry.json())
    from league.selectors.games import stored_deal

    other = {**stored_deal(rival), "crib": 6 if rival.crib != 6 else 4}
    other["shows"] = dict(rival.shows)
    not_theirs = _take(game, ann, rival, language="fr", deal=other)
    assert not_theirs.status_code == 400
    assert "Ce ne sont pas les nombres que cat a saisis pour la donne 3" in str(not_theirs.json())
    assert Deal.objects.count() == deals
    assert Deal.objects.get(game=game, number=3, is_current=True).version == 1
    assert not AuditEntry.objects.filter(action="deal_correct").exists()
    # A reason typed by hand is still taken, and stays as typed in every language.
    typed = _api(ann, "fr").post(
        f"/api/games/{game.pk}/corrections/",
        {"number": 3, "deal": other, "reason": "Dan avait 12."},
        format="json",
    )
    assert typed.status_code == 201, typed.json()
    corrected = Deal.objects.get(game=game, number=3, is_current=True)
    assert (corrected.reason_code, corrected.reason) == ("", "Dan avait 12.")
    with translation.override("en"):
        assert corrected.reason_text == "Dan avait 12."


def _ruled(game, ann, cat, judge):
    from league.models import Season
    from league.selectors.games import stored_deal
    from league.services.disputes import dispute_rule

    play(game, ann, deals=3)
    dispute = dispute_raise(game=game, user=cat, claim="Cat's crib was 8.", deal_number=2)
    second = Deal.objects.get(game=game, number=2, is_current=True)
    fixed_deal = {**stored_deal(second), "pegging": [p + 1 for p in second.pegging]}
    with translation.override("fr"):  # the judge's admin is in French
        dispute_rule(
            dispute=dispute,
            judge=judge,
            ruling="Le crib de Cat valait 8.",
            rule_reference="S-4",
            corrections={2: fixed_deal},
        )
    Season.objects.update(publish_rulings=False)
    return dispute


def test_a_rulings_correction_reads_in_each_readers_language_the_ruling_as_written(
    game, ann, cat, judge, league_admin
):
    dispute = _ruled(game, ann, cat, judge)
    deal = Deal.objects.get(game=game, number=2, is_current=True)
    assert deal.reason_code == "ruling"
    assert deal.reason_params == {
        "n": dispute.pk,
        "rule": "S-4",
        "ruling": "Le crib de Cat valait 8.",
    }
    english = f"Ruling on dispute #{dispute.pk} (S-4): Le crib de Cat valait 8."
    french = f"Décision sur la contestation n° {dispute.pk} (S-4) : Le crib de Cat valait 8."
    assert deal.reason == english  # its words as a record, whatever the judge's language

    assert _api(league_admin, "fr").get(f"/api/games/{game.pk}/deals/").json()[1]["reason"] == (
        french
    )
    assert _api(league_admin, "en").get(f"/api/games/{game.pk}/deals/").json()[1]["reason"] == (
        english
    )
    for language, words, other in (("fr", french, english), ("en", english, french)):
        admin = _admin(judge, language)
        trail = admin.get("/admin/league/auditentry/?action=deals_correct").content.decode()
        assert words in trail and other not in trail, language
        game_page = admin.get(f"/admin/league/game/{game.pk}/change/").content.decode()
        assert words in game_page and other not in game_page, language
        ruling_page = admin.get(f"/admin/league/dispute/{dispute.pk}/change/").content.decode()
        assert words in ruling_page and other not in ruling_page, language


def test_the_migration_reads_old_reasons_in_either_language_and_leaves_typed_ones(
    game, ann, cat, judge
):
    dispute = _ruled(game, ann, cat, judge)
    ruled = Deal.objects.get(game=game, number=2, is_current=True)
    first = Deal.objects.get(game=game, number=1, is_current=True)
    third = Deal.objects.get(game=game, number=3, is_current=True)
    french_ruling = (
        f"Décision sur la contestation n° {dispute.pk} (S-4) : Le crib de Cat valait 8.\nVoilà."
    )
    # As rows written before this change were: no code, the words in whichever language.
    Deal.objects.filter(pk=ruled.pk).update(reason_code="", reason_params={}, reason=french_ruling)
    Deal.objects.filter(pk=first.pk).update(reason="Took the numbers cat entered for deal 1.")
    Deal.objects.filter(pk=third.pk).update(reason="Nombres de cat repris pour la donne 3.")
    typed = "Took the numbers from the scorecard."
    entry = AuditEntry.objects.get(action="deals_correct")
    entry.after = {k: v for k, v in entry.after.items() if not k.startswith("reason_")}
    entry.reason = f"Ruling on dispute #{dispute.pk} (S-4): Le crib de Cat valait 8."
    entry.save(update_fields=["after", "reason"])
    hand = AuditEntry.objects.create(
        action="deal_correct",
        object_type="Game",
        object_id=str(game.pk),
        game=game,
        after={"1": {}},
        reason=typed,
    )

    reasons.forwards(django_apps, None)

    for deal in (ruled, first, third):
        deal.refresh_from_db()
    assert (ruled.reason_code, ruled.reason_params) == (
        "ruling",
        {"n": dispute.pk, "rule": "S-4", "ruling": "Le crib de Cat valait 8.\nVoilà."},
    )
    assert (first.reason_code, first.reason_params) == ("took_rival", {"n": 1, "who": "cat"})
    assert (third.reason_code, third.reason_params) == ("took_rival", {"n": 3, "who": "cat"})
    with translation.override("en"):
        assert third.reason_text == "Took the numbers cat entered for deal 3."
    with translation.override("fr"):
        assert first.reason_text == "Nombres de cat repris pour la donne 1."
    entry.refresh_from_db()
    hand.refresh_from_db()
    assert (
        entry.after["reason_code"] == "ruling" and entry.after["reason_params"]["n"] == dispute.pk
    )
    assert "reason_code" not in hand.after and hand.reason == typed
    with translation.override("fr"):
        assert entry.reason_text.startswith(f"Décision sur la contestation n° {dispute.pk}")
        assert hand.reason_text == typed
