"""The director's workspace: its services (a club's members and defaults, "Tonight", a pasted
field with walk-ins, everyone checked in, a playoff no-show by the ACC's timing) and its pages
(who gets in, each step's press going through the service, refusals in words)."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import Group

from league.kernel.errors import DomainError, NotAllowed
from league.kernel.permissions import LEAGUE_ADMINS, TOURNAMENT_DIRECTORS
from league.models import AuditEntry, Player
from tests import factories
from tests.tournaments.conftest import play_round
from tournaments import services
from tournaments.models import (
    Club,
    EntrantStatus,
    PlayoffMatch,
    RoundStatus,
    TableState,
    TournamentStage,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(director):
    club = services.club_create(user=director, name="Crooked Peg")
    club.directors.add(director)
    return club


def _user_in(group: str, username: str):
    user = factories.UserFactory(username=username)
    user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


def test_tonight_makes_a_night_from_the_clubs_defaults(club, director):
    services.club_defaults_set(
        user=director,
        club=club,
        changes={"night_games": 7, "round_minutes": 25, "entry_fee": 1000, "house_percent": 20},
    )
    night = services.night_tonight(user=director, club=club)
    assert night.club == club
    assert night.games_per_entrant == 7 and night.round_minutes == 25
    assert night.purse.entry_fee == 1000 and night.purse.house_percent == 20
    second = services.night_tonight(user=director, club=club)
    assert second.name != night.name  # a second night the same day gets its own name
    assert AuditEntry.objects.filter(action="night_tonight").count() == 2


def test_a_pasted_field_enters_members_and_makes_walk_ins_members(club, director):
    services.club_members_add(user=director, club=club, names=["Ann", "Bob"])
    night = services.night_tonight(user=director, club=club)
    ann = Player.objects.get(name="Ann")
    entered = services.entrants_add(
        user=director,
        tournament=night,
        players=[ann],
        names=services.names_from("bob\n\n  Walk In  \nAnn\n"),
        check_in=False,
    )
    assert [e.name for e in entered] == ["Ann", "Bob", "Walk In"]  # Ann once, "bob" is Bob
    assert set(club.members.values_list("name", flat=True)) == {"Ann", "Bob", "Walk In"}
    assert all(e.status == EntrantStatus.REGISTERED for e in entered)
    services.entrants_check_in_all(user=director, tournament=night)
    assert night.entrants.filter(status=EntrantStatus.CHECKED_IN).count() == 3


def test_someone_entered_twice_is_refused_and_nobody_is_entered(club, director):
    night = services.night_tonight(user=director, club=club)
    services.entrants_add(user=director, tournament=night, names=["Ann"])
    with pytest.raises(DomainError, match="Ann is already entered"):
        services.entrants_add(user=director, tournament=night, names=["Zed", "Ann"])
    assert not night.entrants.filter(name="Zed").exists()


def test_a_director_of_another_club_cannot_run_this_one(club, director):
    other = _user_in(TOURNAMENT_DIRECTORS, "otto")
    with pytest.raises(NotAllowed, match="the directors of Crooked Peg"):
        services.night_tonight(user=other, club=club)
    admin = _user_in(LEAGUE_ADMINS, "lea")
    assert services.night_tonight(user=admin, club=club).club == club


def test_acc_forfeiture_timing():
    assert [services.forfeit_games(m) for m in (0, 4, 5, 19, 20, 34, 35)] == [0, 0, 1, 1, 2, 2, 3]


def _to_playoffs(night, director):
    for _ in range(night.games_per_entrant):
        play_round(night, director)
    services.bracket_draw(user=director, tournament=night)
    return PlayoffMatch.objects.filter(tournament=night, is_bye=False, round=1).first()


def test_a_playoff_no_show_forfeits_by_the_minutes_away(night, field, director):
    match = _to_playoffs(night, director)
    absent = match.bottom
    with pytest.raises(DomainError, match="before 5 minutes"):
        services.playoff_forfeit(user=director, match=match, absent=absent, minutes=4)
    match, games = services.playoff_forfeit(user=director, match=match, absent=absent, minutes=6)
    assert games == 1 and match.winner_id is None
    assert match.games.get().winner == match.top
    match, games = services.playoff_forfeit(user=director, match=match, absent=absent, minutes=50)
    assert games == 1  # best of 3: one more decides it, never more than the match needs
    assert match.winner == match.top
    entry = AuditEntry.objects.filter(action="playoff_forfeit").order_by("pk").last()
    assert entry.after == {"absent": absent.name, "minutes": 50, "games": 1}


def test_starting_a_round_starts_its_clock(night, field, director):
    rnd = services.round_seat_next(user=director, tournament=night)
    assert rnd.started_at is None
    rnd = services.round_start(user=director, round=rnd)
    assert rnd.status == RoundStatus.STARTED and rnd.started_at is not None


# --- pages ----------------------------------------------------------------------------------


def test_a_player_or_a_visitor_is_refused_the_workspace_in_words(client, club):
    player = factories.UserFactory(username="pat")
    client.force_login(player)
    response = client.get("/direct/")
    assert response.status_code == 403
    assert "for a club's directors and league admins" in html.unescape(response.content.decode())
    response = client.get(f"/direct/clubs/{club.pk}/")
    assert response.status_code == 403
    client.logout()
    assert client.get("/direct/").status_code == 302  # to the login page


def test_a_night_from_tonight_to_the_first_round_through_the_pages(client, club, director):
    services.club_members_add(user=director, club=club, names=["Ann", "Bob", "Cy"])
    client.force_login(director)
    page = client.get("/direct/").content.decode()
    assert "Crooked Peg" in page and "data-tonight" in page
    response = client.post(f"/direct/clubs/{club.pk}/", {"op": "tonight"})
    night = club.club_nights.get()
    assert response["Location"] == f"/direct/nights/{night.pk}/"
    members = list(club.members.order_by("name").values_list("pk", flat=True))
    client.post(
        f"/direct/nights/{night.pk}/",
        {"op": "entrants", "members": [str(members[0]), str(members[1])], "names": "Dee"},
    )
    assert sorted(night.entrants.values_list("name", flat=True)) == ["Ann", "Bob", "Dee"]
    client.post(f"/direct/nights/{night.pk}/", {"op": "check_in_all"})
    cy = services.entrants_add(user=director, tournament=night, names=["Cy"], check_in=False)[0]
    client.post(f"/direct/nights/{night.pk}/", {"op": "toggle", "entrant": str(cy.pk)})
    assert night.entrants.filter(status=EntrantStatus.CHECKED_IN).count() == 4
    client.post(f"/direct/nights/{night.pk}/", {"op": "seat"})
    rnd = night.rounds.get()
    page = client.get(f"/direct/nights/{night.pk}/").content.decode()
    assert "Round 1 of 9" in page and page.count("data-table=") == 2
    assert "0 done · 0 with one card · 2 waiting · 0 disagree" in page
    client.post(f"/direct/nights/{night.pk}/", {"op": "start", "round": str(rnd.pk)})
    page = client.get(f"/direct/nights/{night.pk}/").content.decode()
    assert "data-clock" in page  # 20 minutes a round, the club's default


def test_a_refused_press_says_why_and_changes_nothing(client, club, director):
    night = services.night_tonight(user=director, club=club)
    client.force_login(director)
    response = client.post(f"/direct/nights/{night.pk}/", {"op": "seat"}, follow=True)
    assert "Check in at least two entrants" in response.content.decode()
    assert not night.rounds.exists()


def test_the_checker_settles_a_disagreement_on_the_live_view(client, night, field, director):
    judge = _user_in(LEAGUE_ADMINS, "judy")
    rnd = services.round_seat_next(user=director, tournament=night)
    table = rnd.games.order_by("table").first()
    from tests.tournaments.conftest import user_of

    services.scorecard_enter(
        user=user_of(table.first), game=table, winner=table.first, loser_score=90
    )
    services.scorecard_enter(
        user=user_of(table.second), game=table, winner=table.first, loser_score=99
    )
    client.force_login(judge)
    page = client.get(f"/direct/nights/{night.pk}/").content.decode()
    assert "the cards disagree" in page and "loser on 90" in page and "loser on 99" in page
    client.post(
        f"/direct/nights/{night.pk}/",
        {
            "op": "settle",
            "table": str(table.pk),
            "winner": str(table.first_id),
            "loser_score": "99",
        },
    )
    table.refresh_from_db()
    assert table.status == TableState.VERIFIED and table.loser_score == 99


def test_the_live_view_shows_the_acc_rulings_clause_and_the_checker_undoes_it(
    client, night, field, director
):
    """Two qualifiers' cards differ by a point: ACC Rule 12.2(b) settles the table as the
    second card comes in, and the live view says so with the clause and each side's figure."""
    services.tournament_update(user=director, tournament=night, changes={"acc_rules": True})
    judge = _user_in(LEAGUE_ADMINS, "judy")
    rnd = services.round_seat_next(user=director, tournament=night)
    table = rnd.games.order_by("table").first()
    from tests.tournaments.conftest import user_of

    services.scorecard_enter(
        user=user_of(table.first), game=table, winner=table.first, loser_score=104
    )
    services.scorecard_enter(
        user=user_of(table.second), game=table, winner=table.first, loser_score=105
    )
    client.force_login(judge)
    url = f"/direct/nights/{night.pk}/"
    page = html.unescape(client.get(url).content.decode())
    assert 'data-acc-rule="12.2(b)"' in page and "settled by ACC Rule 12.2(b)" in page
    assert f"{table.first.name} won by 16, {table.second.name} lost by 17" in page
    client.post(url, {"op": "acc_undo", "table": str(table.pk)})
    table.refresh_from_db()
    assert table.status == TableState.MISMATCH
    page = client.get(url).content.decode()
    assert "data-acc-rule" not in page and "the cards disagree" in page


def test_the_api_runs_a_night_with_the_same_services(client, club, director):
    client.force_login(director)
    response = client.post(f"/api/clubs/{club.pk}/tonight/", content_type="application/json")
    assert response.status_code == 201, response.content
    night_id = response.json()["id"]
    response = client.post(
        f"/api/tournaments/{night_id}/entrants/",
        {"names": ["Ann", "Bob", "Cy", "Dee"], "check_in": True},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert [e["name"] for e in response.json()] == ["Ann", "Bob", "Cy", "Dee"]
    response = client.post(f"/api/tournaments/{night_id}/seat/", content_type="application/json")
    assert response.status_code == 201 and response.json()["number"] == 1
    response = client.post(f"/api/tournaments/{night_id}/seat/", content_type="application/json")
    assert response.status_code == 409
    assert "still has 2 game(s) without a verified result" in response.json()["detail"]
    assert Club.objects.get().club_nights.get().stage == TournamentStage.QUALIFYING


# --- playoff games from the players' own cards ----------------------------------------------


def test_two_playoff_cards_that_agree_record_the_game(night, field, director):
    from tests.tournaments.conftest import user_of

    match = _to_playoffs(night, director)
    top, bottom = match.top, match.bottom
    match, outcome = services.playoff_card_enter(
        user=user_of(top), match=match, winner=top, loser_score=100
    )
    assert outcome == TableState.ENTERED and not match.games.exists()
    with pytest.raises(DomainError, match="waiting for"):
        services.playoff_card_enter(user=user_of(top), match=match, winner=top, loser_score=100)
    match, outcome = services.playoff_card_enter(
        user=user_of(bottom), match=match, winner=top, loser_score=100
    )
    assert outcome == TableState.VERIFIED
    game = match.games.get()
    assert (game.number, game.winner, game.loser_score) == (1, top, 100)


def test_playoff_cards_that_differ_wait_for_the_director(night, field, director, client):
    from tests.tournaments.conftest import user_of

    match = _to_playoffs(night, director)
    top, bottom = match.top, match.bottom
    services.playoff_card_enter(user=user_of(top), match=match, winner=top, loser_score=100)
    _m, outcome = services.playoff_card_enter(
        user=user_of(bottom), match=match, winner=bottom, loser_score=110
    )
    assert outcome == TableState.MISMATCH and not match.games.exists()
    client.force_login(director)
    page = html.unescape(client.get(f"/direct/nights/{night.pk}/").content.decode())
    assert "the cards disagree: you decide" in page
    assert f"Card from {top.name}: {top.name} won, loser on 100" in page
    client.post(
        f"/direct/nights/{night.pk}/",
        {"op": "game", "match": str(match.pk), "winner": str(top.pk), "loser_score": "100"},
    )
    assert match.games.get().winner == top
    # the next game starts with no card
    assert services.open_cards(PlayoffMatch.objects.get(pk=match.pk)) == []


def test_only_the_matchs_players_send_its_cards(night, field, director, client):
    match = _to_playoffs(night, director)
    stranger = factories.UserFactory(username="stan")
    Player.objects.create(name="Stan", user=stranger)
    with pytest.raises(NotAllowed, match="do not play in this match"):
        services.playoff_card_enter(user=stranger, match=match, winner=match.top, loser_score=9)
    client.force_login(stranger)
    assert client.get(f"/tournaments/playoff/{match.pk}/card/").status_code == 403


def test_a_player_sends_a_playoff_card_from_the_phone_page(night, field, director, client):
    from tests.tournaments.conftest import user_of

    match = _to_playoffs(night, director)
    client.force_login(user_of(match.bottom))
    page = client.get(f"/tournaments/{night.pk}/").content.decode()
    assert f"/tournaments/playoff/{match.pk}/card/" in page
    response = client.post(
        f"/tournaments/playoff/{match.pk}/card/",
        {"winner": str(match.bottom_id), "loser_score": "97"},
        follow=True,
    )
    assert "Waiting for your opponent" in response.content.decode()
    card = match.cards.get()
    assert (card.side, card.winner, card.loser_score) == (match.bottom, match.bottom, 97)


def test_the_night_page_costs_the_same_queries_for_a_bigger_field(client, club, director):
    """The live screen is polled all night: its queries do not grow with the field."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(director)
    counts = []
    for size in (4, 16):
        night = services.night_tonight(user=director, club=club)
        services.entrants_add(
            user=director,
            tournament=night,
            names=[f"Player {size}-{i}" for i in range(size)],
            check_in=True,
        )
        services.round_seat_next(user=director, tournament=night)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/direct/nights/{night.pk}/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
    assert counts[1] <= 40, counts


def test_a_director_names_a_co_director_who_then_gets_in(client, club, director):
    helper = factories.UserFactory(username="helen")
    client.force_login(helper)
    assert client.get(f"/direct/clubs/{club.pk}/").status_code == 403
    client.force_login(director)
    client.post(f"/direct/clubs/{club.pk}/", {"op": "director", "username": "Helen"})
    assert club.directors.filter(pk=helper.pk).exists()
    client.force_login(helper)
    assert client.get(f"/direct/clubs/{club.pk}/").status_code == 200
    assert services.night_tonight(user=helper, club=club).club == club
    with pytest.raises(DomainError, match="Nobody has the login zed"):
        services.club_director_add(user=director, club=club, username="zed")


def test_side_pots_are_kept_on_the_nights_screen(client, club, director):
    services.club_defaults_set(user=director, club=club, changes={"entry_fee": 1000})
    night = services.night_tonight(user=director, club=club)
    entered = services.entrants_add(user=director, tournament=night, names=["Ann", "Bob", "Cy"])
    client.force_login(director)
    url = f"/direct/nights/{night.pk}/"
    response = client.post(url, {"op": "pot_open", "kind": "skunk", "fee": "2"}, follow=True)
    assert "The side pot is open." in response.content.decode()
    pot = night.side_pots.get()
    assert pot.fee == 200
    client.post(
        url, {"op": "pot_enter", "pot": str(pot.pk), "entrants": [str(e.pk) for e in entered]}
    )
    client.post(url, {"op": "pot_award", "pot": str(pot.pk), "entrants": [str(entered[1].pk)]})
    page = client.get(url).content.decode()
    assert "won by" in page and "Bob ($6.00)" in page
    response = client.post(url, {"op": "pot_award", "pot": str(pot.pk)}, follow=True)
    assert "Tap the entrants first." in response.content.decode()


def test_the_tv_shows_who_checked_in_before_play_then_the_round_clock(client, club, director):
    night = services.night_tonight(user=director, club=club)
    services.entrants_add(user=director, tournament=night, names=["Ann", "Bob"], check_in=True)
    services.entrants_add(user=director, tournament=night, names=["Cy"], check_in=False)
    page = client.get(f"/tournaments/{night.pk}/tv/").content.decode()
    assert "2 entrants checked in" in page
    assert "<li>Ann</li>" in page and "<li>Cy</li>" not in page
    rnd = services.round_seat_next(user=director, tournament=night)
    assert "data-clock" not in client.get(f"/tournaments/{night.pk}/tv/").content.decode()
    services.round_start(user=director, round=rnd)
    page = client.get(f"/tournaments/{night.pk}/tv/").content.decode()
    assert "data-clock" in page and "checked in" not in page


def test_the_api_runs_the_playoffs_with_the_players_cards_and_a_no_show(
    client, night, field, director
):
    from tests.tournaments.conftest import user_of

    services.tournament_update(user=director, tournament=night, changes={"qualify_one_in": 2})
    for _ in range(night.games_per_entrant):
        play_round(night, director)
    client.force_login(director)
    response = client.post(f"/api/tournaments/{night.pk}/draw/", content_type="application/json")
    assert response.status_code == 201, response.content
    semi, other = PlayoffMatch.objects.filter(tournament=night, round=1).order_by("position")
    services.playoff_game_record(user=director, match=other, winner=other.top, loser_score=90)
    services.playoff_game_record(user=director, match=other, winner=other.top, loser_score=90)
    response = client.post(
        f"/api/playoff-matches/{semi.pk}/forfeit/",
        {"absent": semi.bottom_id, "minutes": 3},
        content_type="application/json",
    )
    assert response.status_code == 400 and "before 5 minutes" in response.json()["detail"]
    response = client.post(
        f"/api/playoff-matches/{semi.pk}/forfeit/",
        {"absent": semi.bottom_id, "minutes": 21},
        content_type="application/json",
    )
    assert response.status_code == 200 and response.json()["winner"]["id"] == semi.top_id
    final = PlayoffMatch.objects.get(tournament=night, round=2)
    answers = []
    for side in (final.top, final.bottom):
        client.force_login(user_of(side))
        response = client.post(
            f"/api/playoff-matches/{final.pk}/cards/",
            {"winner": final.top_id, "loser_score": 77},
            content_type="application/json",
        )
        assert response.status_code == 201, response.content
        answers.append(response.json()["card"])
    assert answers == ["waiting", "recorded"]
    assert final.games.get().loser_score == 77
    client.force_login(user_of(final.bottom))
    response = client.post(f"/api/tournaments/{night.pk}/seat/", content_type="application/json")
    assert response.status_code == 403  # a player does not run the night


def test_workspace_pages_keep_to_the_csp_and_label_every_field(client, night, field, director):
    """The accessibility basics of tests/web/test_accessibility.py, on every step's page."""
    import re

    services.tournament_update(user=director, tournament=night, changes={"qualify_one_in": 2})
    club = services.club_found(user=director, name="Crooked Peg")
    services.club_members_add(user=director, club=club, names=["Zed"])
    services.purse_set(user=director, tournament=night, entry_fee=500)
    services.side_pot_set(user=director, tournament=night, kind="skunk", fee=200)
    client.force_login(director)
    urls = [f"/direct/clubs/{club.pk}/", "/direct/"]
    for number in range(night.games_per_entrant + 1):
        urls.append(f"/direct/nights/{night.pk}/")
        if number < night.games_per_entrant:
            play_round(night, director)
    services.bracket_draw(user=director, tournament=night)
    urls.append(f"/direct/nights/{night.pk}/")
    for url in urls:
        body = client.get(url).content.decode()
        assert body.count("<main") == 1, url
        for tag in re.findall(r"<script[^>]*>", body):
            assert "src=" in tag, (url, tag)
        assert not re.search(r"\sstyle=", body), url
        assert not re.search(r"\son[a-z]+=", body), url
        ids = set(re.findall(r'<label[^>]*for="([^"]+)"', body))
        for tag in re.findall(r"<(?:input|select|textarea)[^>]*>", body):
            if re.search(r'type="(hidden|submit)"', tag):
                continue
            id_ = re.search(r'id="([^"]+)"', tag)
            assert id_ and id_.group(1) in ids, (url, tag)


def test_two_entrants_swap_seats_on_the_nights_screen_until_the_round_starts(
    client, night, field, director
):
    rnd = services.round_seat_next(user=director, tournament=night)
    table = rnd.games.order_by("table").first()
    other = rnd.games.order_by("table").last()
    a, b = table.first, other.second
    client.force_login(director)
    url = f"/direct/nights/{night.pk}/"
    assert "data-swap" in client.get(url).content.decode()
    client.post(url, {"op": "swap", "round": str(rnd.pk), "a": str(a.pk), "b": str(b.pk)})
    table.refresh_from_db()
    assert table.first_id == b.pk
    services.round_start(user=director, round=rnd)
    page = client.get(url).content.decode()
    assert "data-swap" not in page
    response = client.post(
        url, {"op": "swap", "round": str(rnd.pk), "a": str(a.pk), "b": str(b.pk)}, follow=True
    )
    assert "seats can no longer be swapped" in response.content.decode()
