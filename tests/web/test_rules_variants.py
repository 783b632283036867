"""The rules page for every game Pegboard scores: each number a rule states is read off the
page and compared with the scorer's own answer (its exact show distributions, its pegging
bounds, its flush and heels points, its outcome), so the page cannot describe another game."""

from __future__ import annotations

import re
from html import unescape
from types import SimpleNamespace

import pytest
from django.urls import reverse

from contest.points import skunk_defaults
from league.models import Season, SeasonState
from league.models.rules import RULE_FIELDS
from league.rules_reference import render_every_rule
from league.services.rules import league_create, season_create
from scoring import DealEntry, Pegging, SkunkLevel, outcome_for, parse_cards, score_show
from scoring.distribution import show_distribution
from scoring.errors import InvalidDealError
from scoring.game import GameState, entry_rules, validate_deal
from scoring.pegging import max_pegging, peg_scores
from scoring.variants import VARIANTS, Variant

pytestmark = pytest.mark.django_db

# Every game a league may play, with its targets: the standard two- and four-handed games to
# 61 as well as to 121.
LEAGUE_GAMES = [
    ("singles-121", 121),
    ("singles-121", 61),
    ("partnership-121", 121),
    ("partnership-121", 61),
    ("five-card-61", 61),
    ("seven-card-181", 181),
]


def rule_texts(body: str) -> dict[str, str]:
    """Rule id -> its entry on the page (the <dd>), tags removed."""
    out = {}
    for rule_id, entry in re.findall(r'<dt id="([A-Z]-\d+)">(.*?)</dd>', body, re.S):
        out[rule_id] = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", entry)).strip()
    return out


def stated(text: str) -> set[int]:
    """The numbers a rule's text states: not its own id, not the rules it refers to, not the
    document it quotes (“...”), not its source line."""
    text = text.split(" Source: ")[0]
    text = re.sub(r"“[^”]*”", " ", text)
    text = re.sub(r"\b[A-Z]-\d+\b", " ", text)
    return {int(n) for n in re.findall(r"\d+", text)}


def main(text: str) -> str:
    """The rule itself, without the league's reading of it."""
    return text.split(" The league's reading: ")[0]


def published(season: Season) -> None:
    """A new season is a draft only organisers see: the visitor's page is of a published one
    (its schedule is not what these tests are about)."""
    Season.objects.filter(pk=season.pk).update(state=SeasonState.PUBLISHED)


def page_for(client, league_admin, variant: str, target: int) -> dict[str, str]:
    """A new league and season of ``variant`` to ``target`` (so its skunk margins are the new
    defaults), and its rules page."""
    league = league_create(
        user=league_admin,
        name=f"{variant} to {target}",
        rules={"variant": variant, "target": target},
    )
    season = season_create(league=league, user=league_admin, name="Winter")
    published(season)
    response = client.get(reverse("league:rules"), {"season": season.pk})
    assert response.status_code == 200
    return rule_texts(unescape(response.content.decode()))


def suit_cards(n: int, suit: str, *, avoid: str = "") -> list:
    """``n`` cards of one suit whose ranks make no fifteen, pair or run with each other."""
    ranks = [r for r in ("A", "3", "7", "9", "Q", "K") if r != avoid][:n]
    return parse_cards(" ".join(r + suit for r in ranks))


def check_every_number(texts: dict[str, str], v: Variant, target: int) -> None:
    """Each rule worded from the game states the scorer's numbers, and no others."""
    # D-2: the deal
    assert stated(texts["D-2"]) == {target, v.dealt, v.dealt - v.hand_size, v.hand_size}

    # D-5: three for last, in the five-card game only; the scorer pegs it before the first deal
    start = GameState.start(v.key, first_dealer=0, target=target)
    if v.three_for_last:
        assert stated(main(texts["D-5"])) == {max(start.scores), target}
    else:
        assert "D-5" not in texts
        assert start.scores == (0,) * v.sides

    # P-2: fifteen and thirty-one peg what the scorer pegs
    fifteen = peg_scores("7H 8D")[-1].points
    thirty_one = peg_scores("KH QD AS KS")[-1].points
    assert stated(main(texts["P-2"])) == {15, fifteen, 31, thirty_one}

    # P-5 and P-6: where the play ends, as the scorer plays it
    hands = ["KH QH 9H 2H 3H", "KS QS 9S 4D 5D", "KD QD 9D 6C 7C", "KC QC 9C 8S 6S"]
    pegging = Pegging(v, [parse_cards(h)[: v.hand_size] for h in hands[: v.players]], dealer=0)
    first = v.next_seat(0)
    pegging.play(first, pegging.hands[first][0])  # K: 10
    second = v.next_seat(first)
    pegging.play(second, pegging.hands[second][0])  # K: 20
    third = v.next_seat(second)
    pegging.play(third, pegging.hands[third][0])  # K: 30, nobody can follow
    seat = pegging.to_play
    while seat is not None and not pegging.legal_cards and pegging.count == 30:
        pegging.go(seat)
        seat = pegging.to_play
    if v.one_go_only:
        assert pegging.finished, "the five-card play ends at the first go"
        assert "the play ends at the first go or 31" in texts["P-5"]
        assert "starts again at zero" not in main(texts["P-5"])
        assert "starts again at zero" not in main(texts["P-2"])
        assert stated(main(texts["P-6"])) == {31}
    else:
        assert not pegging.finished and pegging.count == 0, "the count starts again"
        assert "the count starts again at zero" in main(texts["P-5"])
        assert stated(main(texts["P-6"])) == {1, 31, 2}
    go_points = [e.points for e in pegging.events if e.label in ("go", "last card")]
    assert go_points == [1]
    assert {1, 2, 31} == stated(main(texts["P-5"]))

    # S-1: the counting order the scorer uses
    order = v.show_order(0)
    if v.players == 2:
        assert order == [1, 0]
        assert "the non-dealer counts first, then the dealer" in texts["S-1"]
    else:
        assert order == [*range(1, v.players), 0]
        assert "clockwise from the dealer's left" in texts["S-1"]

    # S-5: a flush in the hand
    hand = suit_cards(v.hand_size, "H")
    assert score_show(hand, parse_cards("2S")[0]).flush == v.hand_size
    assert score_show(hand, parse_cards("2H")[0]).flush == v.hand_size + 1
    short = suit_cards(v.hand_size - 1, "H") + parse_cards("4C")
    assert score_show(short, parse_cards("2H")[0]).flush == 0
    assert stated(main(texts["S-5"])) == {v.hand_size, v.hand_size + 1, v.hand_size - 1}

    # S-6: a flush in the crib
    crib = suit_cards(v.crib_size, "D")
    assert score_show(crib, parse_cards("2S")[0], crib=True).flush == 0
    five = score_show(crib, parse_cards("2D")[0], crib=True).flush
    assert stated(main(texts["S-6"])) == {v.crib_size, five}

    # S-8: the totals no show makes, from the scorer's exact count of every hand and crib
    hands_made = show_distribution(v.hand_size)
    cribs_made = show_distribution(v.crib_size, crib=True)
    expected = {max(hands_made), max(cribs_made)}
    expected |= {n for n in range(max(hands_made)) if n not in hands_made}
    expected |= {n for n in range(max(cribs_made)) if n not in cribs_made}
    assert stated(texts["S-8"]) == expected

    # S-10: what entry refuses, as the scorer refuses it
    rules = entry_rules(v, target=target)
    dealer_side, other_side = v.side_of(0), v.side_of(1)
    peg_dealer, peg_other = max_pegging(v, dealer=True), max_pegging(v, dealer=False)
    assert stated(texts["S-10"]) == {peg_dealer, peg_other, target}
    state = GameState.start(v.key, first_dealer=0, target=target)
    shows = dict.fromkeys(range(v.players), 0)
    for side, limit in ((dealer_side, peg_dealer), (other_side, peg_other)):
        pegging_over = [0] * v.sides
        pegging_over[side] = limit + 1
        with pytest.raises(InvalidDealError) as refused:
            validate_deal(state, DealEntry(0, pegging=pegging_over, shows=shows, crib=0))
        assert refused.value.field.startswith("pegging")
    for starter, heels in (("JH", False), ("5H", True)):
        with pytest.raises(InvalidDealError) as refused:
            validate_deal(
                state,
                DealEntry(
                    0,
                    starter=parse_cards(starter)[0],
                    heels=heels,
                    pegging=[0] * v.sides,
                    shows=shows,
                    crib=0,
                ),
            )
        assert refused.value.field == "heels"
    for total in sorted(expected - set(rules["show_totals"]))[:3]:
        with pytest.raises(InvalidDealError):
            validate_deal(state, DealEntry(0, pegging=[0] * v.sides, shows={**shows, 1: total}))

    # W-1, W-2, W-5, W-6: the target and the skunks, as the outcome judges them
    assert stated(texts["W-1"]) == {target}
    margins = skunk_defaults(target)
    skunk, double = margins.skunk_margin, margins.double_skunk_margin
    assert stated(main(texts["W-2"])) == {skunk, target - skunk, 1}
    assert (
        f"This season a skunk is a win by {skunk} points or more and a double skunk a win by "
        f"{double} or more." in texts["W-2"]
    )
    for loser, level in ((target - skunk, SkunkLevel.SKUNK), (target - skunk + 1, SkunkLevel.NONE)):
        scores = [target, loser] + [0] * (v.sides - 2)
        got = outcome_for(scores, target=target, skunk_margin=skunk, double_skunk_margin=double)
        assert got.skunk_level == level
    assert stated(main(texts["W-5"])) == {double} | ({target - double} - {0})
    if target == double:
        assert "the loser did not score" in texts["W-5"]
    over = outcome_for([target + 4, target - 28] + [0] * (v.sides - 2), target=target)
    assert stated(main(texts["W-6"])) == {target, target + 4, target - 28, over.margin, 32}


@pytest.mark.parametrize(("variant", "target"), LEAGUE_GAMES)
def test_every_number_on_the_rules_page_is_the_scorers(client, league_admin, variant, target):
    texts = page_for(client, league_admin, variant, target)
    check_every_number(texts, VARIANTS[variant], target)


def test_every_number_of_the_three_handed_game_is_the_scorers():
    """Three-handed cribbage is no league's game (a match is two teams) but the reference
    describes it from the same facts."""
    v = VARIANTS["three-player-121"]
    skunks = skunk_defaults(v.target)
    rules = SimpleNamespace(
        variant=v.key,
        target=v.target,
        games_per_match=3,
        playoff_games_per_match=3,
        points_per_win=1,
        skunk_margin=skunks.skunk_margin,
        skunk_bonus=1,
        double_skunk_margin=skunks.double_skunk_margin,
        double_skunk_bonus=0,
        tiebreaks=[],
        requires_confirmation=True,
        irregularities=[],
        publish_rulings=False,
    )
    assert set(vars(rules)) == set(RULE_FIELDS)
    texts = {
        r.id: f"{r.text} The league's reading: {r.reading}" if r.reading else r.text
        for r in render_every_rule(rules)
        if r.played
    }
    assert "One card more is dealt straight to the crib." in texts["D-2"]
    check_every_number(texts, v, v.target)


# --- The standard games to 61, and the skunk table ----------------------------------------------


@pytest.mark.parametrize("variant", ["singles-121", "partnership-121"])
def test_a_league_plays_the_standard_game_to_61(client, league_admin, variant):
    league = league_create(user=league_admin, name=f"Short {variant}", rules={"variant": variant})
    season = season_create(league=league, user=league_admin, name="Short")
    url = reverse("league:organise_season", args=[season.pk])
    client.force_login(league_admin)
    form = client.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k != "irregularities"}
    data.update(requires_confirmation="on", target=61)
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    season.refresh_from_db()
    assert season.target == 61
    published(season)
    client.logout()
    texts = rule_texts(
        unescape(client.get(reverse("league:rules"), {"season": season.pk}).content.decode())
    )
    assert "to 61 each player is dealt" in texts["D-2"]
    assert "The first side to reach 61 wins" in texts["W-1"]


@pytest.mark.parametrize(
    ("variant", "target", "says"),
    [
        ("five-card-61", 121, "is played to 61, not 121."),
        ("seven-card-181", 61, "is played to 181, not 61."),
        ("partnership-121", 100, "is played to 121 or 61, not 100."),
    ],
)
def test_other_targets_are_refused_saying_which_the_game_allows(
    league_admin, variant, target, says
):
    from league.kernel.errors import ValidationFailed

    with pytest.raises(ValidationFailed) as refused:
        league_create(user=league_admin, name="Odd", rules={"variant": variant, "target": target})
    assert says in refused.value.message and refused.value.field == "target"


def test_a_five_card_win_by_45_is_a_skunk_as_the_acc_says_not_a_double(league_admin):
    league = league_create(user=league_admin, name="Five", rules={"variant": "five-card-61"})
    season = season_create(league=league, user=league_admin, name="Five")
    got = outcome_for(
        (61, 16),
        target=61,
        skunk_margin=season.skunk_margin,
        double_skunk_margin=season.double_skunk_margin,
    )
    assert got.margin == 45 and got.skunk_level == SkunkLevel.SKUNK


def test_a_league_made_before_the_table_keeps_its_margins_for_new_seasons(league_admin):
    """The table sets the defaults of new leagues only: a league stored with the old five-card
    margins (16 and 31) gives them to its next season, and no stored result is re-scored."""
    from tests import factories

    league = factories.LeagueFactory(
        variant="five-card-61", target=61, skunk_margin=16, double_skunk_margin=31
    )
    season = season_create(league=league, user=league_admin, name="Next")
    season.refresh_from_db()
    assert (season.skunk_margin, season.double_skunk_margin) == (16, 31)
