"""A varied league for the records: two leagues, four public seasons and a draft, teams that
keep their names across seasons while their players move, skunks and double skunks, weeks won
and lost, a playoff week, a match not over, an unconfirmed game, a forfeit, matches with a date
of their own and weeks without one, a player in both leagues, careers long enough for the
games, wins and points milestones, and special hands (29, 28, a 24 crib, four of a kind) in
deals entered with their cards. Built deterministically (one seed) with plain rows, so the
records pages' output can be captured and compared (``test_records_unchanged``)."""

from __future__ import annotations

import datetime as dt
import random

from league import models
from tests.factories import LeagueFactory, PlayerFactory, SeasonFactory, TeamFactory

NAMES = ["Aces", "Kings", "Queens", "Jacks"]
PEOPLE = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]

# (dealer, starter, cards, shows, crib): hands whose points the scorer counts from the cards.
SPECIAL = [
    (1, "5S", {"0": ["AH", "3D", "8C", "KS"], "1": ["2H", "7D", "9C", "QH"],
               "2": ["5H", "5D", "5C", "JS"], "3": ["AS", "2C", "8D", "TH"],
               "crib": ["4H", "4D", "6C", "6S"]}, {"0": 4, "1": 2, "2": 29, "3": 0}, 24),
    (0, "KH", {"0": ["5H", "5D", "5S", "5C"], "1": ["2H", "7D", "9C", "QH"],
               "2": ["AH", "3D", "8C", "KS"], "3": ["AS", "2C", "8D", "TH"],
               "crib": ["4H", "9D", "6C", "JC"]}, {"0": 28, "1": 2, "2": 4, "3": 0}, 2),
    (3, "2S", {"0": ["AH", "3D", "8C", "KS"], "1": ["2H", "2D", "2C", "9S"],
               "2": ["7H", "7D", "8S", "QC"], "3": ["AS", "4C", "8D", "TH"],
               "crib": ["4H", "9D", "6C", "JD"]}, {"0": 4, "1": 12, "2": 8, "3": 0}, 2),
    (2, "5C", {"0": ["AH", "3D", "8C", "KS"], "1": ["2H", "7D", "9C", "QH"],
               "2": ["AS", "2C", "8D", "TH"], "3": ["4H", "4D", "6C", "6S"],
               "crib": ["5H", "5D", "5S", "JC"]}, {"0": 4, "1": 2, "2": 0, "3": 24}, 28),
]  # fmt: skip


class VariedLeague:
    def __init__(self, seed: int = 7, *, prefix: str = "") -> None:
        """``prefix``: put before every player's and league's name (a second league of the
        same shape beside the first)."""
        rng = random.Random(seed)
        self.rng = rng
        self.people = {n: PlayerFactory(name=prefix + n) for n in PEOPLE}
        one = LeagueFactory(name=prefix + "Tuesday Pairs", games_per_match=3)
        two = LeagueFactory(name=prefix + "Thursday Club", games_per_match=3)
        self.two = two
        finished = models.SeasonState.FINISHED
        self.seasons = [
            SeasonFactory(league=one, name="Spring", state=finished),
            SeasonFactory(league=one, name="Autumn", state=finished),
            SeasonFactory(league=two, name="Winter", state=finished),
            SeasonFactory(league=one, name="Summer"),
        ]
        self.draft = SeasonFactory(league=one, name="Next", state=models.SeasonState.DRAFT)
        starts = [
            dt.date(2025, 3, 4),
            dt.date(2025, 9, 2),
            dt.date(2025, 9, 4),
            dt.date(2026, 3, 3),
        ]
        self.games: list[models.Game] = []
        self.special = 0
        for index, season in enumerate([*self.seasons, self.draft]):
            start = starts[index] if index < len(starts) else dt.date(2026, 9, 1)
            self._season(season, index, start, weeks=6 if season.league == one else 5)

    def _teams(self, season: models.Season, index: int) -> list[models.Team]:
        """Ann and Bob are always the Aces (and Ann plays Thursdays too); the others move."""
        p = self.people
        others = PEOPLE[2:]
        shift = 2 * index
        rota = others[shift:] + others[:shift]
        pairs = [("Ann", "Bob"), (rota[0], rota[1]), (rota[2], rota[3]), (rota[4], rota[5])]
        if season.league == self.two:
            pairs = [("Ann", rota[6]), (rota[7], rota[0]), (rota[1], rota[2]), (rota[3], rota[4])]
        return [
            TeamFactory(season=season, name=name, captain=p[a], players=[p[a], p[b]])
            for name, (a, b) in zip(NAMES, pairs, strict=True)
        ]

    def _season(self, season: models.Season, index: int, start: dt.date, weeks: int) -> None:
        rng = self.rng
        teams = self._teams(season, index)
        rounds = [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]]
        for w in range(weeks + 1):
            playoff = w == weeks
            date = start + dt.timedelta(days=7 * w)
            week = models.Week.objects.create(
                season=season,
                number=w + 1,
                date=None if w == 2 else date,  # one week without a date
                is_playoff=playoff,
            )
            pairs = [(0, 1)] if playoff else rounds[w % 3]
            for table, (h, a) in enumerate(pairs, start=1):
                home, away = (teams[h], teams[a]) if w % 2 == 0 else (teams[a], teams[h])
                own = date + dt.timedelta(days=1) if (w == 2 and table == 1) else None
                match = models.Match.objects.create(
                    week=week, home=home, away=away, table=table, date=own
                )
                for number in range(1, 4):
                    self._game(match, number, home, away, rng, last=(w, table, number))

    def _game(self, match, number, home, away, rng, *, last) -> None:
        w, table, _n = last
        loser = rng.choice([40, 55, 60, 75, 89, 90, 91, 100, 110, 118, 120])
        level = 2 if 121 - loser >= 61 else 1 if 121 - loser >= 31 else 0
        home_won = rng.random() < (0.7 if "Aces" in (home.name,) else 0.45)
        status = models.GameStatus.CONFIRMED
        if (w, table, number) == (3, 2, 3):
            status = models.GameStatus.FINISHED  # not confirmed: the match is not over
        forfeit = None
        if (w, table, number) == (4, 2, 3):
            forfeit = models.Forfeit.objects.create(match=match, team=away, reason="absent")
        game = models.Game.objects.create(
            match=match,
            number=number,
            status=status,
            forfeit=forfeit,
            winner=home if home_won else away,
            margin=121 - loser,
            skunk_level=0 if forfeit else level,
            home_score=121 if home_won else loser,
            away_score=loser if home_won else 121,
            confirmed_at="2026-09-03T20:00:00Z",
        )
        hp = list(home.players.order_by("name"))
        ap = list(away.players.order_by("name"))
        for seat, player in enumerate((hp[0], ap[0], hp[1], ap[1])):
            models.GameSeat.objects.create(game=game, seat=seat, player=player)
        if number == 2 and (w + table) % 3 == 0:
            dealer, starter, cards, shows, crib = SPECIAL[self.special % len(SPECIAL)]
            self.special += 1
            models.Deal.objects.create(
                game=game,
                number=1 + self.special % 3,
                dealer=dealer,
                starter=starter,
                pegging=[2, 0],
                shows=shows,
                crib=crib,
                cards=cards,
                home_after=30,
                away_after=20,
            )
        self.games.append(game)
