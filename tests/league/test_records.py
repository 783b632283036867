"""Records on a seeded league worked by hand: two seasons of Aces against Kings (the Kings keep
their name, not their players), a 29 hand and a 24 crib, the skunks, the streaks, a milestone,
the roll of honour; the pages in English and French with their query counts pinned, and the
``records`` command printing the same figures.

The games, Aces' score first (all at 121 but the losers'):

    season 1, night 1 (Aces at home):  121-81 skunk, 116-121, 121-111
    season 1, night 2 (Kings at home): 121-51 double skunk, 121-119, 90-121 skunk
    season 2, night 1 (Aces at home):  121-101, 121-101, 121-101

Aces are Ann and Bob throughout; the Kings are Cat and Dan in season 1, Eve and Fay in season 2.
"""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from league import models
from league.selectors import records
from league.services.records import PARTS, records_stored
from tests.factories import LeagueFactory, PlayerFactory, SeasonFactory, TeamFactory

pytestmark = pytest.mark.django_db

NIGHTS = [
    # (season index, date, Aces at home?, [(aces score, kings score, skunk level)])
    (0, dt.date(2026, 1, 8), True, [(121, 81, 1), (116, 121, 0), (121, 111, 0)]),
    (0, dt.date(2026, 1, 15), False, [(121, 51, 2), (121, 119, 0), (90, 121, 1)]),
    (1, dt.date(2026, 9, 3), True, [(121, 101, 0), (121, 101, 0), (121, 101, 0)]),
]


class Seeded:
    def __init__(self) -> None:
        league = LeagueFactory(name="Tuesday Pairs", games_per_match=3)
        self.s1 = SeasonFactory(league=league, name="Spring", state=models.SeasonState.FINISHED)
        self.s2 = SeasonFactory(league=league, name="Autumn")
        p = {n: PlayerFactory(name=n) for n in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")}
        self.players = p
        self.aces = [
            TeamFactory(season=s, name="Aces", captain=p["Ann"], players=[p["Ann"], p["Bob"]])
            for s in (self.s1, self.s2)
        ]
        self.kings = [
            TeamFactory(
                season=self.s1, name="Kings", captain=p["Cat"], players=[p["Cat"], p["Dan"]]
            ),
            TeamFactory(
                season=self.s2, name="Kings", captain=p["Eve"], players=[p["Eve"], p["Fay"]]
            ),
        ]
        self.games: list[models.Game] = []
        numbers = [0, 0]
        for index, date, aces_home, scores in NIGHTS:
            season = (self.s1, self.s2)[index]
            numbers[index] += 1
            week = models.Week.objects.create(season=season, number=numbers[index], date=date)
            aces, kings = self.aces[index], self.kings[index]
            home, away = (aces, kings) if aces_home else (kings, aces)
            match = models.Match.objects.create(week=week, home=home, away=away)
            for number, (a, k, skunk) in enumerate(scores, start=1):
                self.games.append(self._game(match, number, aces, kings, a, k, skunk))
        # A 29 in Bob's hand and a 24 in Cat's crib (Cat deals), in the very first game.
        models.Deal.objects.create(
            game=self.games[0],
            number=1,
            dealer=1,
            starter="5S",
            pegging=[2, 0],
            shows={"0": 4, "1": 2, "2": 29, "3": 0},
            crib=24,
            cards={
                "0": ["AH", "3D", "8C", "KS"],
                "1": ["2H", "7D", "9C", "QH"],
                "2": ["5H", "5D", "5C", "JS"],
                "3": ["AS", "2C", "8D", "TH"],
                "crib": ["4H", "4D", "6C", "6S"],
            },
            home_after=35,
            away_after=26,
        )

    def _game(self, match, number, aces, kings, a, k, skunk) -> models.Game:
        """Aces sit in seats 0 and 2 (Ann, Bob), the Kings in 1 and 3."""
        aces_home = match.home_id == aces.pk
        game = models.Game.objects.create(
            match=match,
            number=number,
            home_side=0 if aces_home else 1,
            status=models.GameStatus.CONFIRMED,
            winner=aces if a > k else kings,
            margin=abs(a - k),
            skunk_level=skunk,
            home_score=a if aces_home else k,
            away_score=k if aces_home else a,
            confirmed_at="2026-09-03T20:00:00Z",
        )
        a1, a2 = aces.players.order_by("name")
        k1, k2 = kings.players.order_by("name")
        for seat, player in enumerate((a1, k1, a2, k2)):
            models.GameSeat.objects.create(game=game, seat=seat, player=player)
        return game


@pytest.fixture
def seeded() -> Seeded:
    return Seeded()


def _seasons() -> list[models.Season]:
    return list(records.public_seasons().select_related("league"))


def _stored(season: models.Season | None = None) -> dict:
    """The stored records of ``season`` (of all seasons), rebuilt when not current."""
    return records_stored(PARTS, season=season, seasons=_seasons())


def test_team_head_to_head_gathers_both_seasons_of_the_two_names(seeded):
    meeting = records.team_head_to_head(seeded.aces[1], seeded.kings[0])
    t = meeting.total
    # 9 games: won 2+2+3, lost 1+1; spread 40-5+10+70+2-31+60 = 146; skunks given: the 40
    # and the double skunk (70), taken: the 31.
    assert (t.games, t.wins, t.losses, t.spread) == (9, 7, 2, 146)
    assert (t.skunks_given, t.skunks_taken, t.double_skunks_given) == (2, 1, 1)
    assert [(s.name, h.games, h.wins) for s, h in meeting.seasons] == [
        ("Spring", 6, 4),
        ("Autumn", 3, 3),
    ]
    assert meeting.games[0]["game"] == seeded.games[-1]  # latest first
    other_side = records.team_head_to_head(seeded.kings[1], seeded.aces[0]).total
    assert (other_side.wins, other_side.spread, other_side.skunks_given) == (2, -146, 1)


def test_player_head_to_head_counts_only_the_games_they_sat_against(seeded):
    p = seeded.players
    t = records.player_head_to_head(p["Ann"], p["Cat"]).total
    # Cat played season 1 only: 4-2, spread 40-5+10+70+2-31 = 86.
    assert (t.games, t.wins, t.losses, t.spread, t.skunks_given, t.skunks_taken) == (
        6, 4, 2, 86, 2, 1,
    )  # fmt: skip
    assert records.player_head_to_head(p["Ann"], p["Bob"]).total.games == 0  # partners
    assert records.player_head_to_head(p["Cat"], p["Eve"]).total.games == 0  # never met
    opponents = records.player_opponents(p["Ann"])
    assert [(o["player"]["name"], o["games"]) for o in opponents] == [
        ("Cat", 6), ("Dan", 6), ("Eve", 3), ("Fay", 3),
    ]  # fmt: skip


def test_a_29_hand_and_a_24_crib_are_found_with_their_game(seeded):
    hands = records.hands_shown(_stored()["hands"])
    assert [(h["points"], h["player"]["name"], h["crib"], h["kinds"]) for h in hands] == [
        (29, "Bob", False, ("29", "four_of_a_kind")),
        (24, "Cat", True, ("24",)),
    ]
    assert hands[0]["game"] == seeded.games[0]
    assert records.hands_shown(_stored(seeded.s2)["hands"]) == []


def test_skunks_given_and_taken_and_the_skunk_king(seeded):
    every = records.skunks_shown(_stored()["skunks"], _seasons())
    by_name = {line.name: (line.given, line.taken, line.doubles_given) for line in every["players"]}
    assert by_name == {n: (2, 1, 1) for n in ("Ann", "Bob")} | {
        n: (1, 2, 0) for n in ("Cat", "Dan")
    }
    assert [line.name for line in every["king"]] == ["Ann", "Bob"]  # partners share it
    assert [(t.name, t.given, t.taken) for t in every["teams"]] == [
        ("Aces", 2, 1),
        ("Kings", 1, 2),
    ]
    kings = {row["season"].name: [k.name for k in row["kings"]] for row in every["season_kings"]}
    assert kings == {"Autumn": [], "Spring": ["Ann", "Bob"]}


def test_streaks_of_games_and_of_weeks(seeded):
    stored = _stored()
    streaks = records.streaks_shown(stored["streaks"], stored["milestones"])["streaks"]
    # Aces: W L W | W W L | W W W: two runs of three, the first (night 1's third game to
    # night 2's second) is the record; every night won, across both seasons: three weeks.
    ann = next(s for s in streaks["players"] if s["name"] == "Ann")
    assert (ann["length"], ann["first"], ann["last"]) == (3, seeded.games[2], seeded.games[4])
    aces = next(s for s in streaks["teams"] if s["name"] == "Aces")
    assert aces["length"] == 3
    assert [(s["name"], s["length"]) for s in streaks["weeks"]] == [("Aces", 3)]
    cat = next(s for s in streaks["players"] if s["name"] == "Cat")
    assert (cat["length"], cat["first"]) == (1, seeded.games[1])


def test_a_player_passes_1000_points_in_the_last_game(seeded):
    # Ann: 121+116+121 + 121+121+90 = 690 in season 1, then 811, 932, 1053.
    stored = _stored()
    found = records.streaks_shown(stored["streaks"], stored["milestones"])["milestones"]
    assert [(m["player"]["name"], m["kind"], m["at"], m["game"]) for m in found] == [
        ("Ann", "points", 1000, seeded.games[-1]),
        ("Bob", "points", 1000, seeded.games[-1]),
    ]
    assert _stored(seeded.s1)["milestones"] == []


def test_the_roll_of_honour_names_a_season_without_playoff_by_its_first_place(seeded):
    honours = records.roll_of_honour()
    assert [(r["season"].name, r["champion"], r["team"]) for r in honours["seasons"]] == [
        ("Spring", {"team": "Aces", "how": "first_place"}, seeded.aces[0])
    ]  # Autumn has not finished


def test_forfeits_drafts_and_unconfirmed_games_are_not_records(seeded):
    game = seeded.games[0]
    models.Game.objects.filter(pk=game.pk).update(status=models.GameStatus.FINISHED)
    draft = SeasonFactory(league=seeded.s1.league, state=models.SeasonState.DRAFT)
    team = TeamFactory(season=draft, name="Aces", players=[seeded.players["Ann"]])
    assert records.team_head_to_head(team, seeded.kings[0]).total.games == 8
    assert _stored()["hands"] == []  # its game is no longer confirmed


# --- The pages -------------------------------------------------------------------------------


def test_every_records_page_reads_in_english_and_french(seeded, client):
    p = seeded.players
    pages = {
        reverse("league:records"): ("Roll of honour", "Palmarès"),
        reverse("league:records_honours"): ("first in the standings", "premier au classement"),
        reverse("league:records_hands"): ("four of a kind", "carré"),
        reverse("league:records_skunks"): ("Skunk King", "Roi des capots"),
        reverse("league:records_streaks"): ("Weeks won in a row", "Semaines gagnées d'affilée"),
        reverse("league:records_h2h"): ("A player", "Un joueur"),
        reverse("league:records_h2h") + f"?player={p['Ann'].pk}": ("Cat", "Cat"),
        reverse("league:records_h2h_teams", args=[seeded.aces[0].pk, seeded.kings[1].pk]): (
            "Skunks given", "Capots infligés",
        ),
        reverse("league:records_h2h_players", args=[p["Ann"].pk, p["Cat"].pk]): (
            "Skunks taken", "Capots subis",
        ),
    }  # fmt: skip
    for url, (english, french) in pages.items():
        assert english in client.get(url, headers={"accept-language": "en"}).content.decode()
        client.cookies["django_language"] = "fr"
        body = client.get(url).content.decode()
        del client.cookies["django_language"]
        assert french in body, url
        assert '<html lang="fr"' in body


def test_the_head_to_head_page_shows_the_hand_worked_record(seeded, client):
    url = reverse("league:records_h2h_teams", args=[seeded.aces[0].pk, seeded.kings[1].pk])
    body = client.get(url).content.decode()
    assert "<dd>9</dd>" in body and "<dd>7–2</dd>" in body and "<dd>+146</dd>" in body


@pytest.mark.parametrize(
    ("name", "queries"),
    [
        ("records", 0),
        ("records_honours", 5),  # seasons, their teams, what is unsettled (2), the club nights
        ("records_hands", 3),  # the seasons to choose from, the stored hands, their games
        ("records_skunks", 2),  # the seasons to choose from, the stored skunks
        ("records_streaks", 3),  # the seasons, the stored streaks and milestones, their games
    ],
)
def test_query_counts_are_pinned(seeded, client, django_assert_num_queries, name, queries):
    client.get(reverse("league:" + name))  # caches warmed
    with django_assert_num_queries(queries):
        assert client.get(reverse("league:" + name)).status_code == 200


def test_head_to_head_query_counts_are_pinned(seeded, client, django_assert_num_queries):
    p = seeded.players
    teams = reverse("league:records_h2h_teams", args=[seeded.aces[0].pk, seeded.kings[1].pk])
    players = reverse("league:records_h2h_players", args=[p["Ann"].pk, p["Cat"].pk])
    with django_assert_num_queries(3):  # the two teams, the games
        client.get(teams)
    with django_assert_num_queries(4):  # the two players, the games, their seats
        client.get(players)
    picker = reverse("league:records_h2h")
    client.get(picker)  # the stored records built
    with django_assert_num_queries(3):  # the seasons, the stored players, the teams
        client.get(picker)
    with django_assert_num_queries(3):  # the player, the games, their seats
        client.get(f"{picker}?player={p['Ann'].pk}")
    with django_assert_num_queries(2):  # the team, its name's games
        client.get(f"{picker}?team={seeded.aces[0].pk}")


def test_the_team_and_player_pages_link_to_their_head_to_head(seeded, client):
    team_page = client.get(reverse("league:team", args=[seeded.aces[0].pk])).content.decode()
    assert f"{reverse('league:records_h2h')}?team={seeded.aces[0].pk}" in team_page
    ann = seeded.players["Ann"]
    player_page = client.get(reverse("league:player", args=[ann.pk])).content.decode()
    assert f"{reverse('league:records_h2h')}?player={ann.pk}" in player_page
    picker = client.get(f"{reverse('league:records_h2h')}?team={seeded.aces[0].pk}")
    url = reverse("league:records_h2h_teams", args=[seeded.aces[0].pk, seeded.kings[1].pk])
    assert url in picker.content.decode()  # the Kings' latest row


def test_a_draft_season_and_a_team_against_itself_are_not_pages(seeded, client):
    draft = SeasonFactory(state=models.SeasonState.DRAFT)
    assert client.get(reverse("league:records_skunks") + f"?season={draft.pk}").status_code == 404
    assert client.get(reverse("league:records_skunks") + "?season=²").status_code == 404
    same = reverse("league:records_h2h_teams", args=[seeded.aces[0].pk, seeded.aces[1].pk])
    assert client.get(same).status_code == 404


# --- The command -----------------------------------------------------------------------------


def test_the_command_prints_the_same_figures(seeded):
    out = StringIO()
    call_command("records", "--json", stdout=out)
    doc = json.loads(out.getvalue())
    assert doc["champions"] == [
        {"league": "Tuesday Pairs", "season": "Spring", "team": "Aces", "how": "first_place"}
    ]
    assert [k["name"] for k in doc["skunk_king"]] == ["Ann", "Bob"]
    weeks = doc["streaks"]["weeks"][0]
    assert (weeks["name"], weeks["length"]) == ("Aces", 3)
    assert (weeks["from"]["game"], weeks["to"]["game"]) == (seeded.games[2].pk, seeded.games[-1].pk)
    assert [(h["points"], h["player"]) for h in doc["special_hands"]] == [(29, "Bob"), (24, "Cat")]
    text = StringIO()
    call_command("records", "--season", str(seeded.s1.pk), stdout=text)
    printed = text.getvalue()
    assert "Records: Spring" in printed
    assert "Skunk King: Ann (2), Bob (2)" in printed
    assert "29 29/four_of_a_kind: Bob, 5H 5D 5C JS + 5S" in printed
