"""English and French: the pages, the score-entry script's messages, dates and numbers follow
the language; the compiled catalogues match their sources."""

from __future__ import annotations

import gettext
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db

LOCALE = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES"


def po_entries(path: Path) -> list[tuple[str, str, bool]]:
    """(msgid, msgstr, fuzzy) of the single-form entries of a .po file."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        if "msgid_plural" in block or 'msgid ""\nmsgstr ""\n"Project' in block:
            continue
        mid = re.search(r'^msgid ((?:".*"\n)+)', block + "\n", re.M)
        mstr = re.search(r'^msgstr ((?:".*"\n?)+)', block + "\n", re.M)
        if not mid or not mstr:
            continue

        def text(chunk: str) -> str:
            raw = "".join(re.findall(r'"(.*)"', chunk))
            return raw.replace("\\n", "\n").replace('\\"', '"').replace("\\\\", "\\")

        msgid = text(mid.group(1))
        ctxt = re.search(r'^msgctxt ((?:".*"\n)+)', block + "\n", re.M)
        if ctxt:  # gettext keys a context's entry as "context\x04msgid"
            msgid = text(ctxt.group(1)) + "\x04" + msgid
        if msgid:
            entries.append((msgid, text(mstr.group(1)), "#, fuzzy" in block))
    return entries


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_string_is_translated_into_french(domain):
    entries = po_entries(LOCALE / f"{domain}.po")
    assert entries
    untranslated = [msgid for msgid, msgstr, fuzzy in entries if not msgstr or fuzzy]
    assert untranslated == []


def po_catalogue(path: Path) -> dict[str, bool]:
    """msgid -> whether French reads it (translated in every form and not fuzzy), plurals too."""
    catalogue = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        fields: dict[str, str] = {}
        key = None
        for line in lines:
            match = re.match(r"^(msgid|msgid_plural|msgstr(?:\[\d+\])?) (\".*\")$", line)
            if match:
                key = match.group(1)
                line = match.group(2)
            if key is not None and line.startswith('"'):
                fields[key] = fields.get(key, "") + line[1:-1]
        if fields.get("msgid"):
            fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in block.splitlines())
            forms = [value for name, value in fields.items() if name.startswith("msgstr")]
            catalogue[fields["msgid"]] = bool(forms) and all(forms) and not fuzzy
    return catalogue


#: What the project's makemessages reads: everything but the tests, the benchmarks and the venv.
SOURCES = [
    "config",
    "contest",
    "deploy",
    "federation",
    "league",
    "scoring",
    "static",
    "teamleagues",
    "templates",
    "tournaments",
    "manage.py",
]


@pytest.fixture(scope="module")
def fresh_catalogues(tmp_path_factory):
    """makemessages run on a copy of the sources and of locale/ (the repository is not touched):
    the .po files it writes are what the catalogues would be if someone ran it now."""
    base = Path(settings.BASE_DIR)
    root = tmp_path_factory.mktemp("makemessages")
    for name in SOURCES:
        source = base / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, root / name)
    shutil.copytree(base / "locale", root / "locale")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        from django.test import override_settings

        with override_settings(LOCALE_PATHS=[root / "locale"]):
            for domain in ("django", "djangojs"):
                call_command(
                    "makemessages", locale=["fr"], domain=domain, no_obsolete=True, verbosity=0
                )
    return root / "locale" / "fr" / "LC_MESSAGES"


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_the_catalogue_has_every_string_of_the_sources_in_french(domain, fresh_catalogues):
    """A string added to a template, a message or a script without its French fails here: run
    ``make messages``, translate what is new or fuzzy, and run it again."""
    fresh = po_catalogue(fresh_catalogues / f"{domain}.po")
    kept = po_catalogue(LOCALE / f"{domain}.po")
    assert fresh
    assert sorted(set(fresh) - set(kept)) == [], "new strings: run makemessages and translate"
    assert sorted(set(kept) - set(fresh)) == [], "strings no source uses: run makemessages"
    assert sorted(msgid for msgid, french in fresh.items() if not french) == []


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_the_compiled_catalogue_matches_its_source(domain):
    with open(LOCALE / f"{domain}.mo", "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for msgid, msgstr, _fuzzy in po_entries(LOCALE / f"{domain}.po"):
        assert compiled.gettext(msgid) == msgstr, f"recompile the catalogue: {msgid!r}"


def test_no_word_of_ours_leaves_one_of_djangos_admin_words_in_english():
    """Our catalogue comes before Django's: a string of ours kept in English ("Go", the
    cribbage call) would put the admin's action button back into English for a French judge.
    Such words of ours take a context of their own (pgettext)."""
    import django

    with open(LOCALE / "django.mo", "rb") as handle:
        ours = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
    djangos = {}
    for compiled in Path(django.__file__).parent.glob("**/locale/fr/LC_MESSAGES/django.mo"):
        with open(compiled, "rb") as handle:
            djangos.update(gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]
    english = sorted(
        msgid
        for msgid, msgstr in ours.items()
        if isinstance(msgid, str)
        and msgid
        and msgstr == msgid
        and djangos.get(msgid, msgid) != msgid
    )
    assert english == []


def test_the_admins_action_button_reads_in_french(client, django_user_model):
    judge = django_user_model.objects.create_superuser("juge", password="x")
    client.force_login(judge)
    page = client.get("/admin/auth/user/", HTTP_ACCEPT_LANGUAGE="fr")
    assert ">Envoyer</button>" in page.content.decode()


def test_pages_follow_the_browsers_language(client, played_season):
    body = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<html lang="fr">' in body
    assert "Ligues de cribbage" in body and "Classement" in body


def test_the_language_switcher_changes_the_language(client, played_season):
    body = client.get("/").content.decode()
    assert 'action="/language/"' in body and "csrfmiddlewaretoken" not in body
    response = client.get(reverse("league:language"), {"language": "fr", "next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert "Saisons en cours" in client.get("/").content.decode()
    elsewhere = client.get(reverse("league:language"), {"language": "en", "next": "https://x.io"})
    assert elsewhere["Location"] == "/"  # never redirects off the site


def test_dates_follow_the_language(client, week, match):
    url = reverse("league:schedule", args=[week.season_id])
    assert "Sept. 3, 2026" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "3 septembre 2026" in client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()


def test_numbers_follow_the_language(client, finished_game, match, home_team):
    from league.services.games import game_confirm

    game_confirm(game=finished_game, user=match.away.captain.user)
    url = reverse("league:team", args=[home_team.pk])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    average = re.search(r"Average show</dt><dd>(\d+)\.(\d)</dd>", english)
    assert average, "the average show has one decimal"
    assert f"Main moyenne</dt><dd>{average.group(1)},{average.group(2)}</dd>" in french


def test_the_entry_scripts_messages_are_translated(client, db):
    catalogue = client.get(reverse("league:jsi18n"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Tout est envoy\\u00e9" in catalogue or "Tout est envoyé" in catalogue


def test_a_refusal_from_the_server_reads_in_french(client, ann, game):
    import json

    client.force_login(ann)
    response = client.post(
        f"/api/games/{game.pk}/deals/",
        json.dumps({"number": 5, "dealer": 0, "pegging": [2, 2], "shows": {}}),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert response.status_code == 409
    assert response.json()["detail"] == "La prochaine donne à saisir est la donne 1."


def test_every_refusal_the_scorer_can_raise_has_a_french_sentence():
    """The scorer says why in English; the league says it again in French, code by code, with
    every number the sentence needs."""
    from django.utils import translation

    from league.kernel.scoring_messages import MESSAGES, scoring_message
    from scoring.errors import CODES, ScoringError

    assert set(MESSAGES) - set(CODES) <= {key for key in MESSAGES if "." in key}
    assert sorted(set(CODES) - set(MESSAGES)) == [], "give these codes a sentence"
    for key, sentence in MESSAGES.items():
        code = key.split(".")[0]
        with translation.override("en"):
            english = str(sentence)
        with translation.override("fr"):
            assert str(sentence) != english, f"{key} has no French"
            error = ScoringError(english, code=code, params=dict.fromkeys(CODES[code], 1))
            french = scoring_message(error, seats=["Ann", "Cat"], sides=["Nobs", "Pairs"])
            assert "%(" not in french and french.endswith("."), french


def test_a_scorer_error_with_an_unknown_code_is_a_mistake_found_at_once():
    from scoring.errors import InvalidDealError

    with pytest.raises(TypeError, match="CODES"):
        InvalidDealError("A hand can never score 19.", code="no_such_code")
    with pytest.raises(TypeError, match="CODES"):
        InvalidDealError("A hand can never score 19.", code="impossible_show", params={})


@pytest.mark.parametrize(
    ("change", "french"),
    [
        ({"shows": {"1": 19, "2": 8, "3": 4, "0": 12}}, "Une main ne peut jamais valoir 19."),
        ({"dealer": 1}, "c'est Ann qui donne cette fois, pas Cat."),
        ({"shows": {"1": 6, "3": 4, "0": 12}}, "Il manque la main de Bob"),
        ({"heels": True}, "La carte de départ est 5H, pas un valet"),
        ({"pegging": [2, 60]}, "marque au plus"),
    ],
    ids=["show-of-19", "wrong-dealer", "missing-show", "heels-without-a-jack", "pegging"],
)
def test_a_deal_the_scorer_refuses_reads_in_french(client, ann, game, change, french):
    import json

    from tests.factories import first_deal

    client.force_login(ann)
    response = client.post(
        f"/api/games/{game.pk}/deals/",
        json.dumps(first_deal(**change)),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert response.status_code == 400, response.json()
    assert french in response.json()["detail"]


def test_the_scorers_count_refuses_a_card_in_french(client, db):
    url = reverse("league:score_show")
    answer = client.get(url, {"hand": "5H 5D", "starter": "5C"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert answer.status_code == 400
    assert answer.json()["detail"] == "Une main à compter a de 3 à 5 cartes, pas 2."
    answer = client.get(url, {"hand": "5H 5D 5S 1X", "starter": "5C"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert "n'est pas une carte" in answer.json()["detail"]


def _visible_text(html: str) -> str:
    main = html.split("<main", 1)[-1]
    text = re.sub(r"<script.*?</script>|<[^>]+>", " ", main, flags=re.S)
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("page", ["standings", "seeding"])
def test_tie_breaks_and_seeding_reasons_read_in_french(client, season, home_team, away_team, page):
    """Two teams level on everything (no game played): the draw places them, and the pages say
    so in French, with no English name of a tie-break left anywhere on them."""
    from league.ranking import METRICS

    url = reverse(f"league:{page}", args=[season.pk])
    text = _visible_text(client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "tirage au sort" in text
    english = [m.english for m in METRICS.values()]
    assert [name for name in english if re.search(rf"\b{name}\b", text, re.I)] == []


@pytest.mark.parametrize("page", ["standings", "seeding"])
def test_standings_and_seeding_of_a_played_season_read_in_french(client, played_season, page):
    """Column headings and tie-break names: none left in English (those that are the same word
    in both languages aside, like Points)."""
    from django.utils import translation

    from league.ranking import METRICS
    from league.standings_row import STANDINGS_ROW

    words = [c.label for c in STANDINGS_ROW if c.shown] + [m.name for m in METRICS.values()]
    with translation.override("en"):
        english = {str(word) for word in words}
    with translation.override("fr"):
        english -= {str(word) for word in words}
    url = reverse(f"league:{page}", args=[played_season.pk])
    text = _visible_text(client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "points de ligue" in text
    assert sorted(w for w in english if re.search(rf"\b{re.escape(w)}\b", text, re.I)) == []


# --- The scorer's breakdown lines --------------------------------------------------------------


def test_every_breakdown_line_has_a_code_and_reads_as_the_scorer_in_english():
    """The league's lines are built from the scorer's kinds, cards and points alone: in English
    they say exactly what the scorer says, for every kind of line a show can hold."""
    import random

    from django.utils import translation

    from league.kernel.scoring_messages import show_lines
    from scoring.cards import Card
    from scoring.show import score_show

    deck = [Card.from_str(f"{rank}{suit}") for rank in "A23456789TJQK" for suit in "CDHS"]
    rng = random.Random(14)
    hands = [rng.sample(deck, 5) for _ in range(3000)]
    hands += [[Card.from_str(c) for c in h.split()] for h in ("5H 5D 5S JC 5C", "4H 6H 5H KH 5S")]
    codes = set()
    with translation.override("en"):
        for *hand, starter in hands:
            show = score_show(hand, starter)
            lines = show_lines(show)
            assert [line["label"] for line in lines] == [i.label for i in show.breakdown()]
            codes |= {line["code"] for line in lines}
    assert codes == {
        "fifteen", "pair", "pair_royal", "double_pair_royal", "run", "flush", "nobs",
    }  # fmt: skip


def test_the_scorers_count_reads_in_french(client, db):
    url = reverse("league:score_show")
    answer = client.get(url, {"hand": "5H 5D 5S JC", "starter": "5C"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert answer.status_code == 200
    body = answer.json()
    assert body["total"] == 29
    labels = [line["label"] for line in body["breakdown"]]
    assert labels[:2] == ["quinze deux", "quinze quatre"]
    assert labels[7] == "quinze seize"
    assert "carré" in labels and labels[-1] == "un pour le valet (nobs)"
    assert body["breakdown"][7]["code"] == "fifteen"
    assert body["breakdown"][7]["params"] == {"count": 16}
    assert body["breakdown"][-1]["cards"] == ["JC"]
    run = client.get(url, {"hand": "4H 5H 6H 9H", "starter": "KS"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert [line["label"] for line in run.json()["breakdown"]][-2:] == [
        "suite de trois",
        "couleur de quatre",
    ]
    english = client.get(url, {"hand": "5H 5D 5S JC", "starter": "5C"}, HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["breakdown"][0]["label"] == "fifteen two"


def test_the_game_pages_breakdowns_read_in_french(client, finished_game):
    url = reverse("league:game", args=[finished_game.pk])
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    lines = re.findall(r'<details class="breakdown">.*?</details>', french, re.S)
    assert lines, "the game was played with its cards: each show has its count"
    text = _visible_text(" ".join(lines))
    assert "quinze deux : " in text
    assert not re.search(r"\b(fifteen|pair|run of|flush of|his nobs)\b", text), text
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "fifteen two: " in english


def test_an_unknown_tie_break_is_refused_in_french(db):
    """The ranking refuses an unknown tie-break in English; the organiser reads it in French."""
    from django.utils import translation

    from league.kernel.errors import ValidationFailed
    from league.models.rules import RULE_FIELDS
    from league.services.rules import rules_check, rules_for_variant

    rules = {**rules_for_variant("partnership-121"), "tiebreaks": ["spread", "luck"]}
    assert set(RULE_FIELDS) <= set(rules)
    with translation.override("fr"), pytest.raises(ValidationFailed) as refused:
        rules_check(rules)
    assert refused.value.message.startswith("luck n'est pas un critère de départage")
    assert refused.value.field == "tiebreaks"


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_no_team_league_or_side_name_takes_an_english_possessive(domain):
    """Team and league names often end in s ("Muggins", "Thursday Doubles"): "Muggins's
    pegging" reads wrong, so a sentence names them without a possessive."""
    named = re.compile(r"%\((team|league|side|side_name|season)\)s['’]s\b")
    wrong = [msgid for msgid, _, _ in po_entries(LOCALE / f"{domain}.po") if named.search(msgid)]
    assert wrong == []
