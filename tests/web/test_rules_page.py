"""The rules reference a judge cites: worded from the season's settings, every rule with its
source, found by any of its names, the optional irregularity rules a season turns on, and the
rulings that cited each rule (for judges, and for everyone where the league publishes them)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils import translation

from league.kernel.errors import NotAllowed, ValidationFailed
from league.models import Season
from league.models.rules import NON_SCORING_FIELDS, RULE_FIELDS
from league.rules_reference import (
    IRREGULARITY_IDS,
    RULES,
    SOURCES,
    render_every_rule,
)
from league.services.disputes import dispute_raise, dispute_rule
from league.services.rules import season_rules_update
from tests import factories

pytestmark = pytest.mark.django_db


def page(client, season=None, **params):
    if season is not None:
        params["season"] = season.pk
    response = client.get(reverse("league:rules"), params)
    assert response.status_code == 200
    return unescape(response.content.decode())


def rule_text(body: str, rule_id: str) -> str:
    """The text of one rule's entry on the page (its <dd>), tags removed."""
    match = re.search(rf'<dt id="{rule_id}">(.*?)</dd>', body, re.S)
    assert match, f"{rule_id} is not on the page"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(1)))


def rule_ids(body: str) -> list[str]:
    return re.findall(r'<dt id="([A-Z]-\d+)">', body)


# --- Worded from the season's settings -----------------------------------------------------------

# setting -> (new value, the rule whose wording follows it, what the wording then says)
CHANGES = {
    "variant": ("singles-121", "D-2", "two-player six-card cribbage to 121 each player is dealt 6"),
    "target": (61, "W-1", "The first side to reach 61 wins"),
    "games_per_match": (5, "W-3", "a match of 5 games"),
    "playoff_games_per_match": (5, "W-4", "the best of 5 games"),
    "points_per_win": (2, "W-3", "A game won earns 2 league points"),
    "skunk_margin": (31, "W-2", "A win by 31 points or more is a skunk: the loser finished at 90"),
    "skunk_bonus": (2, "W-2", "It earns the winner 2 extra league points"),
    "double_skunk_margin": (71, "W-5", "A win by 71 points or more is a double skunk"),
    "double_skunk_bonus": (1, "W-5", "It earns 1 extra league point on top of the skunk bonus"),
    "tiebreaks": (["spread", "wins"], "W-4", "separated by spread, games won, in that order"),
    "requires_confirmation": (False, "W-7", "counts in the standings at once"),
}


def test_every_setting_of_play_has_a_rule_that_follows_it():
    wording = {name for rule in RULES for name in rule.settings}
    assert set(RULE_FIELDS) - set(NON_SCORING_FIELDS) == wording == set(CHANGES)


@pytest.mark.parametrize("setting", sorted(CHANGES))
def test_each_setting_changes_the_wording_of_its_rule(client, season, setting):
    value, rule_id, says = CHANGES[setting]
    before = rule_text(page(client, season), rule_id)
    assert says not in before
    Season.objects.filter(pk=season.pk).update(**{setting: value})
    after = rule_text(page(client, season), rule_id)
    assert says in after, after
    assert after != before


def test_the_skunk_rule_says_the_leagues_margin_not_a_fixed_one(client, league):
    acc = factories.SeasonFactory(league=league, name="ACC margins", skunk_margin=31)
    text = rule_text(page(client, acc), "W-2")
    assert "A win by 31 points or more is a skunk: the loser finished at 90 or below" in text
    assert "It follows the ACC scoring table and glossary" in text
    assert "the league sheet's “win by 30+”" in text  # the other reading, named
    sheet = factories.SeasonFactory(league=league, name="Sheet margins", skunk_margin=30)
    text = rule_text(page(client, sheet), "W-2")
    assert "A win by 30 points or more is a skunk: the loser finished at 91 or below" in text
    assert "It follows the league's rule sheet" in text


def test_the_margin_counts_the_winner_at_the_game_hole(client, season):
    text = rule_text(page(client, season), "W-6")
    assert "the winner counts as the game hole, 121" in text
    assert "pegging out at 125 against 93 is a margin of 28, not 32" in text


def test_the_page_says_whether_a_double_skunk_earns_more_than_a_skunk(client, season):
    assert "It earns nothing beyond the skunk bonus." in rule_text(page(client, season), "W-5")


def test_the_page_says_which_seasons_rules_it_shows(client, league, season):
    older = factories.SeasonFactory(
        league=league, name="Spring 2026", state="finished", skunk_margin=40
    )
    body = page(client)  # the current season by default
    assert "The rules of Thursday Doubles, season Fall 2026" in body
    body = page(client, older)
    assert "The rules of Thursday Doubles, season Spring 2026" in body
    assert "A win by 40 points or more is a skunk" in rule_text(body, "W-2")
    assert client.get(reverse("league:rules"), {"season": 999999}).status_code == 404


def test_with_no_season_yet_the_page_shows_a_new_leagues_defaults(client, db):
    body = page(client)
    assert "The default rules of a new league" in body
    assert "A win by 31 points or more is a skunk" in rule_text(body, "W-2")


# --- Sources and readings -------------------------------------------------------------------------


def test_no_rule_lacks_a_source(client, season):
    for rule in RULES:
        assert rule.sources, rule.id
        assert all(key in SOURCES for key in rule.sources), rule.id
    body = page(client, season)
    for rule_id in rule_ids(body):
        assert "Source: the " in rule_text(body, rule_id) or "Source: house" in rule_text(
            body, rule_id
        ), rule_id


def test_every_source_is_a_seed_document_a_published_text_the_settings_or_house_convention():
    for source in SOURCES.values():
        assert (
            source.file.endswith(".txt")
            or source.url.startswith("https://")
            or source.key in ("settings", "house")
        ), source


# Each point the documents leave open: the rule, and words of the league's reading.
READINGS = {
    "P-2": "Thirty-one pegs 2 even when it is reached after a go",
    "P-5": "the go point goes to whoever laid the last card",
    "D-3": "The player on the dealer's left cuts for the starter",
    "D-4": "which the league sheet calls “nobs”",
    "S-5": "needs all 4 hand cards of one suit",
    "S-9": "Nobody takes the points of an over-count either",
    "W-2": "This season a skunk is a win by",
    "W-6": "The margin is 121 minus the loser's score",
}


@pytest.mark.parametrize("rule_id", sorted(READINGS))
def test_each_ambiguous_point_states_the_leagues_reading_and_names_the_other(
    client, season, rule_id
):
    text = rule_text(page(client, season), rule_id)
    assert "The league's reading: " in text
    assert READINGS[rule_id] in text
    assert re.search(r"\(It follows [^;]+; the other reading: .+\.\)", text), text


def test_over_counts_are_refused_not_corrected(client, season):
    assert "is corrected" not in page(client, season)


# --- Search by any name ---------------------------------------------------------------------------

SYNONYMS = [
    ("nobs", "S-7"),
    ("nobs", "D-4"),  # the league sheet's name for the turned Jack
    ("nibs", "D-4"),
    ("his heels", "D-4"),
    ("his nobs", "S-7"),
    ("go", "P-5"),
    ("goes", "P-5"),
    ("crib", "S-6"),
    ("box", "S-6"),
    ("skunk", "W-2"),
    ("lurch", "W-2"),
]


@pytest.mark.parametrize(("query", "rule_id"), SYNONYMS)
def test_each_synonym_finds_its_rule(client, season, query, rule_id):
    assert rule_id in rule_ids(page(client, season, q=query))


@pytest.mark.parametrize(
    ("query", "rule_id", "why"),
    [
        ("misdeal", "X-1", "an irregularity rule this season leaves off"),
        ("exposed", "X-2", "an irregularity rule this season leaves off"),
        ("renege", "X-5", "an irregularity rule this season leaves off"),
        ("three for last", "D-5", "only five-card cribbage gives three for last"),
    ],
)
def test_a_search_finds_rules_the_season_does_not_play_and_says_why(
    client, season, query, rule_id, why
):
    body = page(client, season, q=query)
    assert rule_id in rule_ids(body)
    assert f"Not played this season: {why}." in rule_text(body, rule_id)
    assert rule_id not in rule_ids(page(client, season))  # not among the rules in force
    assert "Not played this season" not in rule_text(page(client, season, q="nobs"), "S-7")


def test_a_five_card_season_plays_three_for_last(client, league):
    five = factories.SeasonFactory(
        league=league,
        name="Five-card",
        variant="five-card-61",
        target=61,
        skunk_margin=31,
        double_skunk_margin=61,
    )
    body = page(client, five)
    assert "D-5" in rule_ids(body)
    assert "Not played" not in rule_text(body, "D-5")
    assert "D-5 Three for last" not in body.split("Rules this season does not play")[-1]


def test_a_search_finds_only_what_matches(client, season):
    found = rule_ids(page(client, season, q="nibs"))
    assert found == ["D-4"]
    assert rule_ids(page(client, season, q="zzyzx")) == []


def test_the_search_finds_rules_by_their_english_names_on_the_french_page(client, season):
    client.cookies["django_language"] = "fr"
    body = page(client, season, q="nibs")
    assert '<html lang="fr">' in body
    assert rule_ids(body) == ["D-4"]


# --- Irregularities, optional --------------------------------------------------------------------


def test_irregularity_rules_are_off_by_default(client, season):
    assert season.irregularities == []
    ids = rule_ids(page(client, season))
    assert not set(IRREGULARITY_IDS) & set(ids)
    assert "X-1 Misdeal" in page(client, season)  # named among those not played


def test_a_season_turns_on_the_irregularities_it_plays_and_judges_cite_them(
    client, season, league_admin, finished_game, cat, judge
):
    season_rules_update(
        season=season, user=league_admin, changes={"irregularities": ["X-1"]}, reason="We play it."
    )
    ids = rule_ids(page(client, season))
    assert "X-1" in ids and "X-2" not in ids
    dispute = dispute_raise(game=finished_game, user=cat, claim="They dealt six cards.")
    with pytest.raises(ValidationFailed):
        dispute_rule(dispute=dispute, judge=judge, ruling="Redeal.", rule_reference="X-2")
    dispute_rule(dispute=dispute, judge=judge, ruling="Redeal.", rule_reference="X-1", dismiss=True)


def test_irregularities_follow_the_accs_rules_with_the_gentler_reading_named(client, season):
    Season.objects.filter(pk=season.pk).update(irregularities=["X-4", "X-5"])
    body = page(client, season)
    out_of_turn = rule_text(body, "X-4")
    assert "(ACC rule 7.1 b)" in out_of_turn
    assert "Source: the ACC's tournament rules" in out_of_turn
    assert "the other reading: the gentler house rule" in out_of_turn
    after_go = rule_text(body, "X-5")
    assert "it is a renege" in after_go and "(ACC rule 7.3)" in after_go
    assert "the other reading: the gentler house rule" in after_go


def test_an_unknown_irregularity_is_refused(season, league_admin):
    with pytest.raises(ValidationFailed):
        season_rules_update(season=season, user=league_admin, changes={"irregularities": ["X-99"]})


def test_irregularities_freeze_with_the_other_rules_but_publishing_rulings_does_not(
    season, league_admin, finished_game
):
    with pytest.raises(ValidationFailed):  # under way: a reason is needed
        season_rules_update(season=season, user=league_admin, changes={"irregularities": ["X-3"]})
    version = Season.objects.get(pk=season.pk).results_version
    season_rules_update(season=season, user=league_admin, changes={"publish_rulings": True})
    season.refresh_from_db()
    assert season.publish_rulings
    assert season.results_version == version  # nothing re-scored


def test_a_player_cannot_publish_rulings(season, ann):
    with pytest.raises(NotAllowed):
        season_rules_update(season=season, user=ann, changes={"publish_rulings": True})


def test_the_organiser_turns_irregularities_on_in_the_seasons_rules(client, season, league_admin):
    client.force_login(league_admin)
    url = reverse("league:organise_season", args=[season.pk])
    form = client.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k != "irregularities"}
    data["requires_confirmation"] = "on"
    data.update(irregularities=["X-4", "X-1"], publish_rulings="on")
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    season.refresh_from_db()
    assert season.irregularities == ["X-1", "X-4"]
    assert season.publish_rulings


# --- Precedents -----------------------------------------------------------------------------------


def rule_on(game, who, judge, *, rule, ruling):
    dispute = dispute_raise(game=game, user=who, claim="We disagree.")
    return dispute_rule(
        dispute=dispute, judge=judge, ruling=ruling, rule_reference=rule, dismiss=True
    )


def test_a_ruling_appears_under_the_rule_it_cites_for_judges(client, finished_game, cat, judge):
    season = finished_game.match.week.season
    rule_on(finished_game, cat, judge, rule="P-5", ruling="The go point was Ann's.")
    client.force_login(judge)
    body = page(client, season)
    assert "The go point was Ann's." in rule_text(body, "P-5")
    assert "The go point was Ann's." not in rule_text(body, "P-2")


def test_a_visitor_sees_rulings_only_once_the_league_publishes_them(
    client, finished_game, cat, judge, ann
):
    season = finished_game.match.week.season
    rule_on(finished_game, cat, judge, rule="P-5", ruling="The go point was Ann's.")
    assert "The go point was Ann's." not in page(client, season)
    client.force_login(ann)  # a player is no judge either
    assert "The go point was Ann's." not in page(client, season)
    client.logout()
    Season.objects.filter(pk=season.pk).update(publish_rulings=True)
    assert "The go point was Ann's." in rule_text(page(client, season), "P-5")


def test_the_rules_pages_query_count_does_not_grow_with_rulings(
    client, finished_game, cat, judge, django_assert_num_queries
):
    season = finished_game.match.week.season
    client.force_login(judge)
    rule_on(finished_game, cat, judge, rule="P-5", ruling="One.")
    page(client, season)  # warm the session
    with django_assert_num_queries(5):  # session, user, groups, seasons, rulings
        page(client, season)
    finished_game.refresh_from_db()
    rule_on(finished_game, judge, judge, rule="S-7", ruling="Two.")  # a judge's review
    rule_on(finished_game, judge, judge, rule="P-5", ruling="Three.")
    with django_assert_num_queries(5):
        body = page(client, season)
    assert "Three." in rule_text(body, "P-5") and "Two." in rule_text(body, "S-7")


def test_a_visitors_rules_page_costs_one_query(client, season, django_assert_num_queries):
    with django_assert_num_queries(1):
        page(client, season)


# --- Languages and paper -----------------------------------------------------------------------


def test_every_rule_reads_in_french(season):
    season.irregularities = list(IRREGULARITY_IDS)
    english = {r.id: r for r in render_every_rule(season)}
    with translation.override("fr"):
        french = {r.id: r for r in render_every_rule(season)}
    assert set(french) == {r.id for r in RULES}
    for rule_id, rule in french.items():
        assert rule.text != english[rule_id].text, rule_id
        assert rule.sources != english[rule_id].sources, rule_id
        assert rule.reading != english[rule_id].reading or not rule.reading, rule_id


def test_the_page_prints_without_its_search_or_rulings(client, season):
    body = page(client, season)
    assert 'class="rules-search no-print"' in body
    assert "rules-page" in body


def test_a_ruling_on_a_game_links_to_the_rule_of_that_games_season(
    client, finished_game, cat, judge, league
):
    season = finished_game.match.week.season
    Season.objects.filter(pk=season.pk).update(irregularities=["X-1"], publish_rulings=True)
    rule_on(finished_game, cat, judge, rule="X-1", ruling="A misdeal: deal again.")
    factories.SeasonFactory(league=league, name="Later")  # not the game's season
    client.force_login(judge)
    body = client.get(reverse("league:game", args=[finished_game.pk])).content.decode()
    assert f'href="{reverse("league:rules")}?season={season.pk}#X-1"' in body
    assert "X-1" in rule_ids(page(client, season))
