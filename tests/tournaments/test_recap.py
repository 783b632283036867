"""A club night's story: its skunks, top finishers, special hands and winner from the verified
results, its upsets from the ratings as they stood before the night, in English and in French,
on its page, in the API and from the command."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone, translation

from league.kernel.ratings import win_chances_before
from league.kernel.recap import recap_text
from league.models import Player, Rating
from league.ratings import MODEL
from league.services.ratings import ratings_recompute
from tests.tournaments.conftest import (
    TRUSTED,
    finished_night,
    game_with_a_29,
    play_round,
    user_of,
)
from tournaments import selectors, services
from tournaments.recap import night_recap


def test_a_round_of_skunks_is_told_with_its_leaders(night, director, field):
    # 121 - 85 = 36 points: past the skunk margin (31), short of the double (61).
    rnd = play_round(night, director, score=85)
    winners = {g.first.name for g in rnd.games.all()}
    losers = {g.second.name for g in rnd.games.all()}
    recap = night_recap(night)
    assert {(s.winner, s.loser, s.margin, s.double) for s in recap.skunks} == {
        (g.first.name, g.second.name, 36, False) for g in rnd.games.all()
    }
    assert {f.name for f in recap.finishers} == winners
    assert {f.points for f in recap.finishers} == {3}  # a skunk's game points
    assert not recap.over and recap.winner is None
    text = recap_text(recap)
    for winner in winners:
        assert f"{winner} skunked " in text
    assert not losers & {f.name for f in recap.finishers}
    with translation.override("fr"):
        french = recap_text(recap)
    assert "de 36 points" in french and " met " in french and "skunked" not in french


def test_a_29_on_the_cards_is_a_special_hand(night, director, field):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.order_by("table").first()
    game = services.scorecard_submit(user=user_of(game.first), game=game, deals=game_with_a_29())
    card = game.scorecards.get()
    services.scorecard_enter(
        user=user_of(game.second), game=game, winner=card.winner, loser_score=card.loser_score
    )
    [hand] = night_recap(night).hands
    assert (hand.player, hand.points, hand.kinds) == (
        game.second.name,
        29,
        ("29", "four_of_a_kind"),
    )
    assert f"{game.second.name}: a 29 hand, four of a kind, 5H 5D 5C JS with 5S cut." in (
        recap_text(night_recap(night))
    )


def test_the_night_s_winner_and_its_final(db):
    night = finished_night(
        "Tuesday Pegs", ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"], rounds=3
    )
    recap = night_recap(night)
    assert recap.over and recap.winner == "Ann"
    [final] = recap.matches
    assert {final.home, final.away} >= {"Ann"}
    assert max(final.home_won, final.away_won) == 2 and min(final.home_won, final.away_won) == 0
    # by final place once the final is decided: the champion, then the finalist it beat
    assert [(f.place, f.name) for f in recap.finishers[:2]] == [
        (1, "Ann"),
        (2, final.away if final.home == "Ann" else final.home),
    ]
    with translation.override("fr"):
        assert "Ann remporte la soirée." in recap_text(recap)


def test_the_night_s_story_page_api_and_command(client, db):
    night = finished_night(
        "Tuesday Pegs", ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"], rounds=3
    )
    page = client.get(reverse("tournaments:recap", args=[night.pk])).content.decode()
    assert "Ann won the night." in page and 'id="recap-text"' in page
    assert (
        reverse("tournaments:recap", args=[night.pk])
        in client.get(reverse("tournaments:tournament", args=[night.pk])).content.decode()
    )
    answer = client.get(f"/api/tournaments/{night.pk}/recap/?lang=fr").json()
    assert answer["language"] == "fr" and "Ann remporte la soirée." in answer["text"]
    assert client.get(f"/api/tournaments/{night.pk}/recap/?lang=xx").status_code == 400
    out = StringIO()
    call_command("night_recap", "--night", str(night.pk), stdout=out)
    with translation.override("en"):
        assert out.getvalue() == recap_text(night_recap(night))


def test_a_club_season_night_tells_who_moved_in_the_season_s_table(db):
    club = services.club_create(user=TRUSTED, name="Crooked Peg", guest_nights=1)
    season = services.club_season_create(user=TRUSTED, club=club, name="Winter", threshold=4)
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]
    first = finished_night("Night 1", names, season=season)
    assert night_recap(first).moves == []  # the season's first night: no table before it
    before = {r.name: r.rank for r in selectors.club_season_standings(season)["rows"]}
    second = finished_night("Night 2", names, season=season, wins=list(reversed(names)))
    after = {r.name: r.rank for r in selectors.club_season_standings(season)["rows"]}
    moves = {m.team: (m.was, m.place) for m in night_recap(second).moves}
    assert moves  # the order reversed: somebody moved
    assert moves == {n: (before[n], after[n]) for n in after if before.get(n, after[n]) != after[n]}


def test_the_night_s_story_reads_17_queries_then_13(db, django_assert_num_queries):
    """Seventeen queries the first time; read again, the ratings' replay (four queries) is not
    done again: its chances are in the cache, behind one query of the rated results' state."""
    from django.core.cache import cache

    cache.clear()
    night = finished_night("Tuesday Pegs", ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"])
    with django_assert_num_queries(17):
        first = night_recap(night)
    with django_assert_num_queries(13):
        assert night_recap(night) == first


def _seasoned_ann(season=None):
    """Two club nights Ann wins every game of, then a third where Zed, new, beats everyone:
    the ratings as they stood before the third night (the league's stored ratings, replayed
    then) and the third night."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]
    first = finished_night("Night 1", names, season=season)
    finished_night("Night 2", names, season=season)
    ratings_recompute()
    before = {r.player.name: (r.mu, r.sigma) for r in Rating.objects.filter(partner__isnull=True)}
    third = finished_night("Night 3", ["Zed", *names[:-1]], season=season)
    return first, before, third


def test_a_new_player_beating_the_club_s_strongest_is_an_upset_by_the_ratings(db):
    club = services.club_create(user=TRUSTED, name="Crooked Peg", guest_nights=1)
    season = services.club_season_create(user=TRUSTED, club=club, name="Winter", threshold=4)
    first, before, third = _seasoned_ann(season)
    assert "Zed" not in before and before["Ann"][0] > MODEL.mu  # Ann strong, Zed new
    upsets = {(u.winner, u.loser): u for u in night_recap(third).upsets}
    told = upsets[("Zed", "Ann")]
    # from both ratings as they stood before the night: Zed the default, Ann's stored then
    expected = MODEL.predict_win([[MODEL.rating()], [MODEL.rating(*before["Ann"])]])[0]
    assert told.chance == pytest.approx(expected) and told.chance < 0.30
    assert all(u.winner == "Zed" for u in upsets.values())  # the others won as rated
    line = (
        f"Zed beat Ann, given a {told.percent}% chance by the ratings."
        if told.games == 1
        else f"Zed beat Ann in {told.games} games, each given a {told.percent}% chance by the"
    )
    assert line in recap_text(night_recap(third))
    with translation.override("fr"):
        assert f"{told.percent} % de chances selon les cotes" in recap_text(night_recap(third))
    # the night's first games were between new players: an even game is no upset
    assert night_recap(first).upsets == []
    assert win_chances_before(timezone.now(), [((1001,), (1002,))]) == [pytest.approx(0.5)]


def test_the_upset_s_chance_is_the_ratings_before_the_night_not_today_s(db):
    _first, _before, third = _seasoned_ann()
    [told] = [u for u in night_recap(third).upsets if (u.winner, u.loser) == ("Zed", "Ann")]
    ratings_recompute()  # the stored ratings count the night's own results now
    [again] = [u for u in night_recap(third).upsets if (u.winner, u.loser) == ("Zed", "Ann")]
    assert again.chance == told.chance
    zed, ann = (Player.objects.get(name=n).pk for n in ("Zed", "Ann"))
    [today] = win_chances_before(timezone.now(), [((zed,), (ann,))])
    assert today > told.chance  # Zed's wins that night count today, not in the story


def test_a_night_of_many_skunks_is_told_per_player_not_game_by_game():
    """Nine skunks (a club night of many tables): the story counts them, says who gave how many,
    most first, and names the biggest, instead of nine lines a newsletter would not print."""
    from league.kernel.recap import Recap, Skunk, recap_sections

    skunks = [
        *(Skunk("Eli", loser, 40, False) for loser in ("Fay", "Bea", "Dot", "Gil")),
        Skunk("Eli", "Hana", 65, True),
        *(Skunk("Jo", loser, 33, False) for loser in ("Ike", "Cal")),
        Skunk("Ada", "Bea", 89, True),
        Skunk("Cal", "Dot", 31, False),
    ]
    recap = Recap(title="Night", params={}, when=None, over=True, skunks=skunks)
    [lines] = [lines for heading, lines in recap_sections(recap) if heading == "Skunks"]
    assert lines == [
        "9 skunks in all.",
        "Eli gave 5 skunks (1 double).",
        "Jo gave 2 skunks.",
        "Ada gave 1 skunk (1 double).",
        "Cal gave 1 skunk.",
        "The biggest: Ada double skunked Bea, by 89 points.",
    ]
    with translation.override("fr"):
        [french] = [lines for heading, lines in recap_sections(recap) if heading == "Capots"]
    assert french[0] == "9 capots en tout."
    assert "Eli a infligé 5 capots (dont 1 double)." in french


def test_a_night_of_many_skunk_givers_names_the_five_who_gave_most_and_counts_the_rest():
    """Sixty-six skunks by twenty players (the demo's busy club night): the story names the five
    who gave the most and puts the other fifteen in one line, not one line each."""
    from league.kernel.recap import Recap, Skunk, recap_sections

    givers = [f"Player {i:02}" for i in range(20)]
    given = {0: 2, 1: 4, 2: 4, 3: 4, 4: 4} | {i: 3 for i in range(5, 20)}
    skunks = [Skunk(givers[i], "Zed", 31, False) for i, n in given.items() for _ in range(n)]
    skunks += [Skunk(givers[0], "Zed", 61, True)] * 3  # Player 00: the most, and the biggest
    recap = Recap(title="Night", params={}, when=None, over=True, skunks=skunks)
    [lines] = [lines for heading, lines in recap_sections(recap) if heading == "Skunks"]
    assert lines == [
        f"{len(skunks)} skunks in all.",
        "Player 00 gave 5 skunks (3 doubles).",
        "Player 01 gave 4 skunks.",
        "Player 02 gave 4 skunks.",
        "Player 03 gave 4 skunks.",
        "Player 04 gave 4 skunks.",
        "15 more players gave 45 skunks between them.",
        "The biggest: Player 00 double skunked Zed, by 61 points.",
    ]
    with translation.override("fr"):
        [french] = [lines for heading, lines in recap_sections(recap) if heading == "Capots"]
    assert "15 autres joueurs ont infligé 45 capots à eux tous." in french
    assert "Player 00 a infligé 5 capots (dont 3 doubles)." in french


def test_six_skunk_givers_are_all_named():
    """One giver past the five is named: a line saying "1 more player" would save nothing."""
    from league.kernel.recap import Recap, Skunk, recap_sections

    skunks = [Skunk(f"P{i}", "Zed", 31, False) for i in range(6) for _ in range(2)]
    recap = Recap(title="Night", params={}, when=None, over=True, skunks=skunks)
    [lines] = [lines for heading, lines in recap_sections(recap) if heading == "Skunks"]
    assert [line for line in lines if "gave" in line] == [f"P{i} gave 2 skunks." for i in range(6)]


def test_a_night_made_by_tonight_says_its_date_once_in_its_heading(db):
    """ "Tonight" names a night after its club and date: the story's heading, which adds the
    date in words, leaves the name's own date out."""
    import datetime as dt

    from league.kernel.recap import recap_heading
    from tests import factories

    director = factories.UserFactory(username="dora", is_staff=True, is_superuser=True)
    club = services.club_found(user=director, name="Crooked Peg")
    night = services.night_tonight(user=director, club=club, date=dt.date(2026, 12, 6))
    assert night.name == "Crooked Peg · 2026-12-06"
    with translation.override("en"):
        assert recap_heading(night_recap(night)) == "Crooked Peg, Dec. 6, 2026"
    again = services.night_tonight(user=director, club=club, date=dt.date(2026, 12, 6))
    with translation.override("fr"):
        assert recap_heading(night_recap(again)) == "Crooked Peg (2), 6 décembre 2026"


def test_a_night_whose_name_already_says_its_date_gets_no_second_one(db):
    """The demo's nights are named "Crooked Peg ACC Club night, 07 Nov 2026": the heading keeps
    the name as it is and adds no date after it."""
    import datetime as dt

    from league.kernel.recap import recap_heading

    night = services.tournament_create(
        user=TRUSTED, name="Crooked Peg ACC Club night, 07 Nov 2026", games_per_entrant=1
    )
    night.date = dt.date(2026, 11, 7)
    night.save(update_fields=["date"])
    with translation.override("en"):
        assert recap_heading(night_recap(night)) == "Crooked Peg ACC Club night, 07 Nov 2026"
    night.date = dt.date(2026, 11, 8)  # a name whose date is not the night's: both are said
    with translation.override("en"):
        assert recap_heading(night_recap(night)).endswith("07 Nov 2026, Nov. 8, 2026")
