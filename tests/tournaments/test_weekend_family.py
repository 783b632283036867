"""A weekend of events: the main's non-qualifiers into the consolation in one action (a full
consolation, or Consy Lite seeded from the main's cards, the best non-qualifiers on the
byes), the high non-qualifier named, the weekend's page and its TV turning through its
events; the director's settings form at /direct/. English and French."""

from __future__ import annotations

import pytest

from league.kernel.errors import Locked, ValidationFailed
from tests.tournaments.conftest import TRUSTED
from tournaments import selectors, services
from tournaments.models import Kind, PlayoffMatch, Tournament, TournamentStage

NAMES = [f"W{i:02d}" for i in range(1, 9)]  # W01 beats everyone after it


@pytest.fixture
def weekend(db):
    family = services.family_create(user=TRUSTED, name="Autumn Classic")
    main = services.family_event_create(
        user=TRUSTED, family=family, name="Autumn Main", kind=Kind.MAIN, games_per_entrant=1
    )
    consy = services.family_event_create(
        user=TRUSTED, family=family, name="Autumn Consolation", kind=Kind.CONSOLATION
    )
    side = services.family_event_create(
        user=TRUSTED,
        family=family,
        name="Saturday Doubles",
        kind=Kind.SIDE_EVENT,
        variant="partnership-121",
    )
    for name in NAMES:
        services.entrant_register(user=TRUSTED, tournament=main, name=name, check_in=True)
    rnd = services.round_seat_next(user=TRUSTED, tournament=main)
    for g in rnd.games.select_related("first", "second"):
        w = g.first if g.first.name < g.second.name else g.second
        services.scorecard_settle(user=TRUSTED, game=g, winner=w, loser_score=100)
    return family, main, consy, side


def _cut(main):
    services.bracket_draw(user=TRUSTED, tournament=main)
    main.refresh_from_db()
    data = selectors.standings_for_tournament(main)
    out = [row["entrant"] for row in data["standings"] if row["entrant"] not in data["qualifiers"]]
    return data, out


def test_the_non_qualifiers_move_into_the_consolation_in_one_action(weekend):
    family, main, consy, _side = weekend
    with pytest.raises(Locked, match="not drawn yet"):
        services.consolation_fill(user=TRUSTED, main=main, consolation=consy)
    data, out = _cut(main)
    assert len(data["qualifiers"]) == 2 and len(out) == 6
    moved = services.consolation_fill(user=TRUSTED, main=main, consolation=consy)
    consy.refresh_from_db()
    assert [e.name for e in moved] == out  # in the main's standings order
    assert all(e.status == "checked_in" for e in moved)
    assert consy.consolation_of == main and consy.family == family
    assert consy.stage == TournamentStage.REGISTRATION  # it plays its own qualifying first
    with pytest.raises(Locked, match="move in once"):
        services.consolation_fill(user=TRUSTED, main=main, consolation=consy)
    assert consy.entrants.count() == 6


def test_consy_lite_goes_straight_into_the_bracket_the_best_non_qualifiers_on_the_byes(weekend):
    _family, main, consy, _side = weekend
    data, out = _cut(main)
    services.consolation_fill(user=TRUSTED, main=main, consolation=consy, lite=True)
    consy.refresh_from_db()
    assert consy.stage == TournamentStage.PLAYOFFS and consy.byes_from_main
    seeds = {e.seed: e.name for e in consy.entrants.exclude(seed=None)}
    assert [seeds[s] for s in range(1, 7)] == out
    byes = PlayoffMatch.objects.filter(tournament=consy, round=1, is_bye=True)
    assert sorted(m.top.name for m in byes) == sorted(out[:2])  # six in a bracket of eight
    assert data["high_non_qualifier"] == out[0]


def test_only_a_consolation_of_this_weekend_takes_them(weekend, db):
    _family, main, _consy, side = weekend
    _cut(main)
    with pytest.raises(ValidationFailed, match="is not a consolation"):
        services.consolation_fill(user=TRUSTED, main=main, consolation=side)
    other = services.family_create(user=TRUSTED, name="Spring Open")
    stray = services.family_event_create(
        user=TRUSTED, family=other, name="Spring Consolation", kind=Kind.CONSOLATION
    )
    with pytest.raises(ValidationFailed, match="another weekend"):
        services.consolation_fill(user=TRUSTED, main=main, consolation=stray)
    assert not stray.entrants.exists()


def test_a_weekend_is_refused_without_a_name_or_with_its_days_backwards(db):
    import datetime as dt

    with pytest.raises(ValidationFailed, match="needs a name"):
        services.family_create(user=TRUSTED, name="  ")
    with pytest.raises(ValidationFailed, match="on or after"):
        services.family_create(
            user=TRUSTED, name="Backwards", starts=dt.date(2027, 3, 6), ends=dt.date(2027, 3, 5)
        )
    with pytest.raises(ValidationFailed, match="main, consolations"):
        family = services.family_create(user=TRUSTED, name="Club weekend")
        services.family_event_create(
            user=TRUSTED, family=family, name="Friday", kind=Kind.CLUB_NIGHT
        )


def test_the_high_non_qualifier_is_named_on_the_standings_and_the_bracket(weekend, client):
    _family, main, _consy, _side = weekend
    page = client.get(f"/tournaments/{main.pk}/").content.decode()
    assert "High non-qualifier" not in page  # not before the cut
    _data, out = _cut(main)
    for url in (f"/tournaments/{main.pk}/", f"/tournaments/{main.pk}/bracket/"):
        page = client.get(url).content.decode()
        assert f"High non-qualifier: {out[0]}" in page
    fr = client.get(f"/tournaments/{main.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Meilleur non-qualifié : {out[0]}" in fr


def test_the_weekend_page_lists_its_events_and_its_tv_turns_through_them(weekend, client):
    family, main, consy, side = weekend
    page = client.get(f"/tournaments/weekends/{family.pk}/").content.decode()
    assert page.index(main.name) < page.index(consy.name) < page.index(side.name)
    assert "doubles" in page
    fr = client.get(
        f"/tournaments/weekends/{family.pk}/", HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Épreuve annexe" in fr and "La télé de la fin de semaine" in fr
    _cut(main)
    services.consolation_fill(user=TRUSTED, main=main, consolation=consy, lite=True)
    first = client.get(f"/tournaments/weekends/{family.pk}/tv/").content.decode()
    assert "Autumn Classic · event 1 of 2" in first and main.name in first
    assert "?event=2" in first and 'http-equiv="refresh"' in first
    second = client.get(f"/tournaments/weekends/{family.pk}/tv/?event=2").content.decode()
    assert consy.name in second and "?event=1" in second
    assert (
        "Autumn Classic · event 1 of 2"
        in client.get(f"/tournaments/weekends/{family.pk}/tv/?event=3").content.decode()
    )


def test_the_director_moves_the_non_qualifiers_from_the_night_page(weekend, client, director):
    _family, main, consy, _side = weekend
    client.force_login(director)
    assert (
        "data-move-non-qualifiers" not in client.get(f"/direct/nights/{main.pk}/").content.decode()
    )
    _cut(main)
    page = client.get(f"/direct/nights/{main.pk}/").content.decode()
    assert "data-move-non-qualifiers" in page and consy.name in page
    response = client.post(
        f"/direct/nights/{main.pk}/",
        {"op": "consolation", "consolation": consy.pk, "lite": "on"},
        follow=True,
    )
    assert "6 non-qualifier(s) moved into Autumn Consolation." in response.content.decode()
    consy.refresh_from_db()
    assert consy.stage == TournamentStage.PLAYOFFS


def test_the_director_edits_the_acc_and_bracket_settings_at_direct(client, director, db):
    t = services.tournament_create(user=director, name="Settings Night", games_per_entrant=3)
    client.force_login(director)
    page = client.get(f"/direct/nights/{t.pk}/settings/").content.decode()
    assert "ACC Rule 12.2(h)" in page and "Best of, round by round" in page
    response = client.post(
        f"/direct/nights/{t.pk}/settings/",
        {
            "qualify_one_in": 4,
            "tiebreak_chain": "acc",
            "games_per_opponent": 2,
            "keep_apart": "Ann, Bob\nCy / Dee",
            "acc_rules": "on",
            "bracket_format": "double",
            "playoff_best_of": 3,
            "playoff_best_of_rounds": "1, 3,5",
        },
    )
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.tiebreaks == ["games_won", "spread", "plus_points", "head_to_head", "playoff"]
    assert (t.games_per_opponent, t.keep_apart) == (2, [["Ann", "Bob"], ["Cy", "Dee"]])
    assert (t.acc_rules, t.acc_no_harm, t.grand_final_reset) == (True, False, False)
    assert (t.bracket_format, t.playoff_best_of_rounds) == ("double", "1,3,5")


@pytest.mark.parametrize(
    ("lang", "change", "words"),
    [
        ("en", {"playoff_best_of_rounds": "1,2"}, "2 is not 1, 3, 5 or 7"),
        ("fr", {"playoff_best_of_rounds": "1,2"}, "2 n&#x27;est pas 1, 3, 5 ou 7"),
        ("en", {"keep_apart": "Ann"}, "Keep apart two different entrants"),
    ],
)
def test_a_bad_setting_is_shown_beside_its_field_and_nothing_changes(
    client, director, db, lang, change, words
):
    t = services.tournament_create(user=director, name="Settings Night", games_per_entrant=3)
    client.force_login(director)
    data = {
        "qualify_one_in": 4,
        "tiebreak_chain": "house",
        "games_per_opponent": 1,
        "keep_apart": "",
        "bracket_format": "single",
        "playoff_best_of": 3,
        "playoff_best_of_rounds": "",
        **change,
    }
    response = client.post(f"/direct/nights/{t.pk}/settings/", data, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    assert words in response.content.decode()
    fresh = Tournament.objects.get(pk=t.pk)
    assert (fresh.playoff_best_of_rounds, fresh.keep_apart) == ("", [])


def test_someone_who_does_not_direct_cannot_open_the_settings(client, db):
    from tests import factories

    t = services.tournament_create(user=TRUSTED, name="Settings Night", games_per_entrant=3)
    client.force_login(factories.UserFactory(username="nosy"))
    response = client.post(f"/direct/nights/{t.pk}/settings/", {"bracket_format": "double"})
    assert response.status_code == 302
    assert Tournament.objects.get(pk=t.pk).bracket_format == "single"


def test_the_director_makes_a_weekend_and_adds_its_events_at_direct(client, director, db):
    client.force_login(director)
    assert "data-weekends-link" in client.get("/direct/").content.decode()
    response = client.post(
        "/direct/weekends/",
        {"name": "Grand National", "starts": "2027-03-05", "ends": "2027-03-07"},
    )
    from tournaments.models import EventFamily

    family = EventFamily.objects.get(name="Grand National")
    assert response["Location"] == f"/direct/weekends/{family.pk}/"
    client.post(f"/direct/weekends/{family.pk}/", {"name": "GN Main", "kind": "main", "games": 12})
    client.post(
        f"/direct/weekends/{family.pk}/",
        {"name": "Saturday Pairs", "kind": "side", "doubles": "on", "games": 5},
    )
    main = Tournament.objects.get(name="GN Main")
    pairs = Tournament.objects.get(name="Saturday Pairs")
    assert (main.family, main.games_per_entrant, main.acc_rules) == (family, 12, True)
    assert str(main.date) == "2027-03-05"
    assert pairs.is_partnership and pairs.kind == "side"
    page = client.get(f"/direct/weekends/{family.pk}/").content.decode()
    assert f"/direct/nights/{main.pk}/" in page and "doubles" in page
    fr = client.get(f"/direct/weekends/{family.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Ajouter une épreuve" in fr


def test_a_bad_weekend_is_refused_in_words(client, director, db):
    client.force_login(director)
    response = client.post(
        "/direct/weekends/", {"name": "Backwards", "starts": "5 March"}, follow=True
    )
    assert "First day: write the date as YYYY-MM-DD." in response.content.decode()
    response = client.post(
        "/direct/weekends/",
        {"name": "Backwards", "starts": "2027-03-05"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    from tournaments.models import EventFamily

    family = EventFamily.objects.get(name="Backwards")
    response = client.post(
        f"/direct/weekends/{family.pk}/",
        {"name": "Friday", "kind": "club-night"},
        follow=True,
    )
    assert "A weekend holds a main" in response.content.decode()
    assert not Tournament.objects.filter(name="Friday").exists()


def test_only_directors_open_the_weekends(client, db):
    from tests import factories

    client.force_login(factories.UserFactory(username="nosy"))
    assert client.get("/direct/weekends/").status_code == 403
    assert client.post("/direct/weekends/", {"name": "Mine"}).status_code == 403
