"""Club seasons (points per night, default and by place, totals and ties), a player's lifetime
tournament record across events, and their pages with pinned query counts."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.kernel.errors import NotAllowed, ValidationFailed
from league.models import Player
from tests import factories
from tests.tournaments.conftest import TRUSTED, finished_night
from tournaments import selectors, services
from tournaments.models import ClubPointsMode


@pytest.fixture
def club(db):
    return services.club_create(user=TRUSTED, name="Crooked Peg ACC Club", venue="The Crooked Peg")


@pytest.fixture
def season(club):
    return services.club_season_create(user=TRUSTED, club=club, name="Winter 2026", threshold=4)


NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def test_by_default_a_night_scores_its_game_points_only_from_the_threshold(season):
    night = finished_night("Night 1", NAMES, season=season)
    data = selectors.club_season_standings(season)
    standings = {
        r["entrant"]: r["game_points"]
        for r in selectors.standings_for_tournament(night)["standings"]
    }
    rows = {r.name: r for r in data["rows"]}
    for name, gp in standings.items():
        assert rows[name].nights == [gp if gp >= 4 else 0]
    assert any(gp < 4 for gp in standings.values())  # someone missed the threshold
    assert any(gp >= 4 for gp in standings.values())


def test_a_points_table_scores_each_night_by_final_place(season):
    services.club_season_update(
        user=TRUSTED,
        season=season,
        changes={"points_mode": ClubPointsMode.TABLE, "points_table": [10, 8, 6]},
    )
    season.refresh_from_db()
    night = finished_night("Night 1", NAMES, season=season)
    data = selectors.club_season_standings(season)
    got = {r.name: r.total for r in data["rows"]}
    champion = selectors.champion(night)
    # 5 entrants: 2 qualify; the final's loser is 2nd, the best non-qualifier 3rd.
    quals = selectors.standings_for_tournament(night)["qualifiers"]
    runner_up = next(q for q in quals if q != champion)
    third = next(
        r["entrant"]
        for r in selectors.standings_for_tournament(night)["standings"]
        if r["entrant"] not in quals
    )
    assert got[champion] == 10 and got[runner_up] == 8 and got[third] == 6
    assert sorted(got.values()) == [0, 0, 6, 8, 10]


def test_the_season_totals_nights_attended_ranks_and_names_ties(season):
    services.club_season_update(
        user=TRUSTED,
        season=season,
        changes={"points_mode": ClubPointsMode.TABLE, "points_table": [10, 8, 6, 5, 4]},
    )
    season.refresh_from_db()
    # Night 2: Ann is away, Fay comes.
    one = finished_night("Night 1", NAMES, season=season)
    two = finished_night("Night 2", ["Bob", "Cy", "Dee", "Eve", "Fay"], season=season)
    rows = {r.name: r for r in selectors.club_season_standings(season)["rows"]}
    assert rows["Ann"].attended == 1 and rows["Bob"].attended == 2 and rows["Fay"].attended == 1
    assert rows["Ann"].nights[1] is None
    for r in rows.values():
        assert r.total == sum(p for p in r.nights if p is not None)
    ordered = selectors.club_season_standings(season)["rows"]
    assert [r.total for r in ordered] == sorted((r.total for r in ordered), reverse=True)
    assert rows[selectors.champion(one)].nights[0] == 10
    assert rows[selectors.champion(two)].nights[1] == 10
    assert {p for r in rows.values() if (p := r.nights[1]) is not None} <= {10, 8, 6, 5, 4}


def test_players_level_on_points_share_a_rank_and_are_named_as_tied(client, season):
    services.club_season_update(
        user=TRUSTED,
        season=season,
        changes={"points_mode": ClubPointsMode.TABLE, "points_table": [5, 5, 1]},
    )
    season.refresh_from_db()
    night = finished_night("Night 1", NAMES, season=season)
    rows = selectors.club_season_standings(season)["rows"]
    champion = selectors.champion(night)
    (runner_up,) = [q for q in night_qualifiers(night) if q != champion]
    top = sorted([champion, runner_up])
    assert [(r.rank, r.name, r.total) for r in rows[:2]] == [(1, top[0], 5), (1, top[1], 5)]
    assert rows[0].tied_with == [top[1]] and rows[1].tied_with == [top[0]]
    assert (rows[2].rank, rows[2].total, rows[2].tied_with) == (3, 1, [])
    assert [r.rank for r in rows[3:]] == [4, 4]
    html = client.get(reverse("tournaments:club_season", args=[season.pk])).content.decode()
    assert f"tied with {top[1]}" in html and "T1" in html


def night_qualifiers(night):
    return selectors.standings_for_tournament(night)["qualifiers"]


def test_a_night_counts_only_once_its_final_is_decided(season):
    t = services.tournament_create(user=TRUSTED, name="Tonight", games_per_entrant=3)
    services.night_assign_season(user=TRUSTED, tournament=t, season=season)
    services.entrant_register(user=TRUSTED, tournament=t, name="Ann", check_in=True)
    data = selectors.club_season_standings(season)
    assert data["nights"] == [] and data["pending"] == [t] and data["rows"] == []


def test_players_are_matched_across_nights_by_their_player_record(season):
    finished_night("Night 1", NAMES, season=season)
    finished_night("Night 2", NAMES, season=season)
    rows = selectors.club_season_standings(season)["rows"]
    assert len(rows) == 5 and {r.attended for r in rows} == {2}
    assert {r.key for r in rows} == set(
        Player.objects.filter(name__in=NAMES).values_list("pk", flat=True)
    )


def test_a_points_table_is_required_to_score_by_place_and_a_threshold_is_not_negative(club):
    with pytest.raises(ValidationFailed, match="points table"):
        services.club_season_create(
            user=TRUSTED, club=club, name="S", points_mode=ClubPointsMode.TABLE, points_table=[]
        )
    with pytest.raises(ValidationFailed, match="threshold"):
        services.club_season_create(user=TRUSTED, club=club, name="S", threshold=-1)
    assert not club.seasons.exists()


def test_a_player_may_not_create_a_club(db):
    with pytest.raises(NotAllowed):
        services.club_create(user=factories.UserFactory(username="pat"), name="Mine")


def test_the_season_page_is_public_and_its_queries_do_not_grow_with_nights(
    client, season, django_assert_num_queries
):
    finished_night("Night 1", NAMES, season=season)
    url = reverse("tournaments:club_season", args=[season.pk])
    with django_assert_num_queries(8):
        page = client.get(url)
    assert page.status_code == 200 and page.content.decode().count("data-season-row") == 5
    finished_night("Night 2", [*NAMES, "Fay"], season=season)
    with django_assert_num_queries(8):
        page = client.get(url)
    assert page.content.decode().count("data-season-row") == 6
    club_page = client.get(reverse("tournaments:club", args=[season.club_id]))
    assert "data-club-season" in club_page.content.decode()


def test_the_season_page_in_french(client, season):
    finished_night("Night 1", NAMES, season=season)
    page = client.get(
        reverse("tournaments:club_season", args=[season.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    )
    html = page.content.decode()
    assert "Saison du club" in html and "Soirées" in html


# --------------------------------------------------------------------------------------------
# A player's lifetime tournament record
# --------------------------------------------------------------------------------------------


def test_a_players_lifetime_record_sums_across_two_events(season):
    # Eight entrants, seven rounds: a full round robin, so the order of strength decides.
    eight = [*NAMES, "Fay", "Gus", "Hal"]
    one = finished_night("Night 1", eight, rounds=7, season=season)
    two = finished_night("Night 2", eight, rounds=7, wins=list(reversed(eight)), season=season)
    ann = Player.objects.get(name="Ann")
    record = selectors.player_tournament_record(ann)
    per_event = []
    for t in (one, two):
        rows = {r["entrant"]: r for r in selectors.standings_for_tournament(t)["standings"]}
        per_event.append(rows["Ann"])
    assert record["played"] == 2
    assert record["won"] == sum(r["won"] for r in per_event)
    assert record["lost"] == sum(r["lost"] for r in per_event)
    assert record["game_points"] == sum(r["game_points"] for r in per_event)
    assert record["spread"] == sum(r["spread"] for r in per_event)
    # Night 1 Ann beats everyone: qualifies and wins it; night 2 she loses to everyone.
    assert record["cuts"] == 1 and record["titles"] == 1 and record["best_finish"] == 1
    assert [e["tournament"] for e in record["events"]] == [two, one]  # newest first
    (placing,) = record["club_seasons"]
    assert placing["season"] == season and placing["nights"] == 2 and placing["row"].attended == 2


def test_the_player_page_shows_the_tournament_record_with_fixed_queries(
    client, season, django_assert_num_queries
):
    finished_night("Night 1", NAMES, season=season)
    ann = Player.objects.get(name="Ann")
    url = reverse("league:player", args=[ann.pk])
    # the league part (player, teams, stats, games: 3 here; their seasons as a sub: 1; the
    # rating block: 1), then the tournament record: the events, their club seasons' nights, and
    # five for every night's rows together
    with django_assert_num_queries(12):
        html = client.get(url).content.decode()
    assert "data-tournament-record" in html and html.count("data-event") == 1
    assert "data-club-placing" in html
    finished_night("Night 2", NAMES, season=season)
    finished_night("Open", NAMES)
    with django_assert_num_queries(12):
        html = client.get(url).content.decode()
    assert html.count("data-event") == 3


def test_a_director_creates_a_club_season_in_the_admin_and_attaches_a_night(client, club):
    from django.contrib.auth.models import Group

    from league.kernel.permissions import TOURNAMENT_DIRECTORS
    from tournaments.models import ClubSeason

    dora = factories.UserFactory(username="dora", is_staff=True)
    dora.groups.add(Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS)[0])
    club.directors.add(dora)  # a director runs the seasons of the clubs they direct
    client.force_login(dora)
    page = client.post(
        reverse("admin:tournaments_clubseason_add"),
        {
            "club": club.pk,
            "name": "Spring 2027",
            "points_mode": ClubPointsMode.TABLE,
            "threshold": 0,
            "points_table": "[10, 8, 6]",
        },
    )
    assert page.status_code == 302
    season = ClubSeason.objects.get(name="Spring 2027")
    assert season.scheme.table == (10, 8, 6)
    night = finished_night("Night 1", NAMES)
    services.night_assign_season(user=dora, tournament=night, season=season)
    assert selectors.club_season_standings(season)["nights"] == [night]


def test_the_tournament_list_names_the_clubs_and_a_night_links_its_season(client, season):
    night = finished_night("Night 1", NAMES, season=season)
    listing = client.get(reverse("tournaments:list")).content.decode()
    assert "Crooked Peg ACC Club" in listing and "data-club" in listing
    page = client.get(reverse("tournaments:tournament", args=[night.pk])).content.decode()
    assert reverse("tournaments:club_season", args=[season.pk]) in page


def test_a_partnership_nights_points_go_to_both_players_and_to_their_records(season):
    teams = {
        "Fifteen Two": ["Ann", "Bob"],
        "His Nobs": ["Cy", "Dee"],
        "Muggins": ["Eve", "Fay"],
        "Skunk Line": ["Gus", "Hal"],
        "Go": ["Ivy", "Jon"],
    }
    night = finished_night("Doubles night", list(teams), season=season, teams=teams)
    gp = {
        r["entrant"]: r["game_points"]
        for r in selectors.standings_for_tournament(night)["standings"]
    }
    rows = {r.name: r for r in selectors.club_season_standings(season)["rows"]}
    assert len(rows) == 10
    for team, (one, two) in teams.items():
        expected = gp[team] if gp[team] >= season.threshold else 0
        assert rows[one].nights == rows[two].nights == [expected]
    record = selectors.player_tournament_record(Player.objects.get(name="Bob"))
    assert record["played"] == 1 and record["events"][0]["entrant"] == "Fifteen Two"
    assert record["game_points"] == gp["Fifteen Two"]
