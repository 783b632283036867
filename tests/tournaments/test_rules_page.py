"""An event's rules page: every setting of the event read back from the page, in English and in
French, linked from the event's pages; the skunk margins name their source from the one table
leagues read too."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import RULE_FIELDS, Tournament

pytestmark = pytest.mark.django_db


def rules_of(client, tournament: Tournament) -> dict[str, str]:
    """Rule id -> its text and source on the event's rules page, tags removed."""
    response = client.get(reverse("tournaments:rules", args=[tournament.pk]))
    assert response.status_code == 200
    body = unescape(response.content.decode())
    return {
        rule_id: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", entry)).strip()
        for rule_id, entry in re.findall(r'<dt id="(T-\d+)">(.*?)</dd>', body, re.S)
    }


# setting -> (its new value, the rule that states it, what the rule then says)
SETTINGS = {
    "variant": (
        "partnership-121",
        "T-1",
        "Partnership cribbage: teams of two, partners opposite, each player dealt 5 cards and "
        "putting 1 in the crib",
    ),
    "games_per_entrant": (7, "T-1", "Each entrant plays 7 qualifying games."),
    "target": (61, "T-1", "the first player to reach 61."),
    "points_win": (4, "T-2", "A game won earns 4 game points"),
    "points_skunk": (5, "T-2", "a skunk 5 game points"),
    "points_double_skunk": (6, "T-2", "a double skunk 6 game points"),
    "points_loss": (1, "T-2", "a game lost earns 1 game point."),
    "skunk_margin": (30, "T-3", "A win by 30 points or more is a skunk (the loser at 91 or below)"),
    "double_skunk_margin": (
        71,
        "T-3",
        "by 71 or more, a double skunk (the loser at 50 or below)",
    ),
    "bye_game_points": (3, "T-4", "earns 3 game points"),
    "bye_spread": (12, "T-4", "a spread of 12."),
    "tiebreaks": (
        ["skunks", "spread"],
        "T-5",
        "separated by skunks won, spread (points scored minus points conceded), in that order",
    ),
    "draw_seed": (4242, "T-5", "from the event's draw seed (4242)"),
    "qualify_one_in": (3, "T-6", "one entrant in 3 qualifies for the playoffs"),
    "playoff_best_of": (5, "T-7", "the best of 5 games: the first to win 3 goes through"),
}


def test_every_rule_setting_of_an_event_has_a_reading():
    assert set(RULE_FIELDS) <= set(SETTINGS)


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_each_setting_reads_back_from_the_events_rules_page(client, night, director, setting):
    value, rule_id, says = SETTINGS[setting]
    before = rules_of(client, night)[rule_id]
    assert says not in before
    services.tournament_update(user=director, tournament=night, changes={setting: value})
    after = rules_of(client, night)[rule_id]
    assert says in after, after


def test_the_deal_is_the_scorers_for_the_events_game(client, night):
    from scoring.variants import VARIANTS

    game = VARIANTS[night.variant]
    says = (
        f"each player dealt {game.dealt} cards and putting {game.dealt - game.hand_size} in the "
        "crib"
    )
    assert says in rules_of(client, night)["T-1"]


def test_the_event_page_links_to_its_rules(client, night):
    body = client.get(reverse("tournaments:tournament", args=[night.pk])).content.decode()
    assert f'href="{reverse("tournaments:rules", args=[night.pk])}"' in body


def test_the_acc_margins_name_the_acc_and_other_margins_the_default(client, night, director):
    assert (
        "Source: the ACC glossary: a skunk is a win by 31 or more" in rules_of(client, night)["T-3"]
    )
    services.tournament_update(user=director, tournament=night, changes={"skunk_margin": 30})
    text = rules_of(client, night)["T-3"]
    assert "the default for a game to 121 is 31 and 61" in text


def test_a_new_target_takes_the_tables_margins_unless_the_director_set_them(night, director):
    services.tournament_update(user=director, tournament=night, changes={"target": 181})
    night.refresh_from_db()
    assert (night.skunk_margin, night.double_skunk_margin) == (46, 91)
    services.tournament_update(
        user=director, tournament=night, changes={"skunk_margin": 40, "target": 121}
    )
    night.refresh_from_db()
    assert (night.skunk_margin, night.double_skunk_margin) == (40, 91)


def test_a_form_that_sends_every_setting_still_moves_default_margins(night, director):
    """The admin's form sends the margins it showed with the new target: unchanged values are
    no choice of the director's, so the table's margins for the new target apply."""
    services.tournament_update(
        user=director,
        tournament=night,
        changes={"target": 181, "skunk_margin": 31, "double_skunk_margin": 61},
    )
    night.refresh_from_db()
    assert (night.target, night.skunk_margin, night.double_skunk_margin) == (181, 46, 91)


def test_a_longer_game_states_the_house_convention(client, director):
    from tournaments.logic import TournamentRules

    event = services.tournament_create(
        user=director, name="Long night", rules=TournamentRules.for_target(181)
    )
    text = rules_of(client, event)["T-3"]
    assert "A win by 46 points or more is a skunk (the loser at 135 or below)" in text
    assert "house convention: no document gives a skunk for a game to 181" in text


def test_the_rules_read_in_french(client, night):
    client.cookies["django_language"] = "fr"
    rules = rules_of(client, night)
    assert {f"T-{n}" for n in range(1, 8)} <= set(rules)
    assert "2 points de partie" in rules["T-2"], rules["T-2"]
    assert "Une victoire par 31 points ou plus est un capot" in rules["T-3"], rules["T-3"]


def test_the_events_rules_page_costs_two_queries(client, night, django_assert_num_queries):
    with django_assert_num_queries(2):  # the event, its rounds for the menu
        rules_of(client, night)


@pytest.mark.parametrize(
    ("on", "says"),
    [
        (True, "settled by ACC rule 12.2 where it can settle them"),
        (False, "A checker settles every table whose two scorecards disagree."),
    ],
)
def test_acc_cross_checking_is_stated_once_the_event_has_the_setting(night, on, says):
    """The cross-checking setting comes from another branch: the page states it from the
    event's field when the model has one, and says nothing of it before."""
    from tournaments.rules_sheet import CROSS_CHECKING_FIELD, tournament_rules

    if not hasattr(night, CROSS_CHECKING_FIELD):
        assert "T-8" not in {rule.id for rule in tournament_rules(night)}
    setattr(night, CROSS_CHECKING_FIELD, on)
    rules = {rule.id: rule for rule in tournament_rules(night)}
    assert says in rules["T-8"].text


def test_the_rules_page_says_what_an_acc_12_2_ruling_does_to_the_standings(night):
    from tournaments.rules_sheet import CROSS_CHECKING_FIELD, tournament_rules

    setattr(night, CROSS_CHECKING_FIELD, True)
    text = {rule.id: rule for rule in tournament_rules(night)}["T-8"].text
    assert "the winner counts a 16-point win while the loser counts a 17-point loss" in text
    assert "each counts a game lost and nobody a game won" in text
