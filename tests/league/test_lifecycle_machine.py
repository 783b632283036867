"""Games driven at random through every door and role, with what a league relies on checked
after every step: the served standings are a fresh recompute from confirmed games; no finished
game is left with nobody allowed to settle it; nothing disputed counts; a refused action changes
nothing, and every change leaves an audit entry; a sub sits only beside a player of the team they
sit for; a postponed match is played within its make-up deadline.

The season's life joins the games: a sub seated for an absent partner, a forfeit and a judge's
undo, a postponement asked, answered or decided, a game cancelled before its first deal, and the
league closing a result nobody confirmed in its grace period.

Doors: the services, the REST API (token-less, signed in), the web pages (session forms) and the
admin panel (its actions and the ruling form). Roles: both teams' captains and players, a third
team, a judge, a league admin, and a judge who plays for the home team.
"""

from __future__ import annotations

import json
import random
import uuid
from datetime import timedelta
from io import StringIO
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db.models import F
from django.test import Client, TestCase
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)
from rest_framework.test import APIClient

from league import checks
from league.kernel.errors import DomainError
from league.kernel.permissions import JUDGES, LEAGUE_ADMINS, Action, can
from league.models import (
    AuditEntry,
    Deal,
    Dispute,
    DisputeStatus,
    Forfeit,
    Game,
    GameSeat,
    GameStatus,
    Match,
    Postponement,
    PostponementStatus,
    SeasonSub,
)
from league.selectors.games import stored_deal
from league.selectors.standings import compute_standings, standings_for_season
from league.services import disputes as dispute_services
from league.services.closing import results_close
from league.services.corrections import deal_correct, rival_withdraw
from league.services.deals import deal_record
from league.services.demo import random_game_deals
from league.services.forfeits import forfeit_undo, match_forfeit
from league.services.games import (
    awaiting_teams_of,
    game_cancel,
    game_confirm,
    game_start,
    game_void,
)
from league.services.postponements import (
    match_postpone,
    postponement_answer,
    postponement_ask,
)
from league.services.seasons import match_update, team_update
from league.services.tallies import wrong_tallies
from tests import factories

# Score entry's services as the machine's rules call them, whichever module each lives in: the
# machine's source seeds its derandomized runs, so it is left as it was when they were chosen.
game_services = SimpleNamespace(
    game_start=game_start,
    deal_record=deal_record,
    deal_correct=deal_correct,
    rival_withdraw=rival_withdraw,
    game_confirm=game_confirm,
    game_void=game_void,
    game_cancel=game_cancel,
    awaiting_teams_of=awaiting_teams_of,
)

ROLES = ["ann", "bob", "cat", "dan", "eve", "judge", "boss", "jo"]
SEEN: set[str] = set()  # every kind of change the runs made (so the test cannot pass idle)
SUBS_SEATED: list[int] = []  # games a sub sat in, over the runs
DOORS = ["service", "api", "web"]


def _names(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k not in ("computed_at", "results_version")}


class LeagueNight(RuleBasedStateMachine):
    """One season: Fifteen Two v Nobs at table 1 (three games), His Heels watching."""

    @initialize()
    def set_up(self) -> None:
        tag = uuid.uuid4().hex[:8]
        league = factories.LeagueFactory(name=f"League {tag}", skunk_margin=31)
        self.season = factories.SeasonFactory(league=league, name=f"Fall {tag}")
        player = factories.PlayerFactory

        def team(name: str, a: str, b: str):
            pa, pb = player(name=f"{a}{tag}"), player(name=f"{b}{tag}")
            return factories.TeamFactory(
                season=self.season, name=name, captain=pa, players=[pa, pb]
            )

        self.home = team(f"Fifteen Two {tag}", "Ann", "Bob")
        self.away = team(f"Nobs {tag}", "Cat", "Dan")
        self.other = team(f"His Heels {tag}", "Eve", "Fay")
        # Jo plays for the home team and is also a judge and a league admin: the bypass case.
        jo = player(name=f"Jo{tag}")
        self.home.players.add(jo)
        week = factories.WeekFactory(season=self.season, number=1)
        self.match = Match.objects.create(week=week, home=self.home, away=self.away, table=1)
        judges, admins = (Group.objects.get_or_create(name=n)[0] for n in (JUDGES, LEAGUE_ADMINS))
        judge = factories.UserFactory(username=f"judge{tag}", is_staff=True)
        judge.groups.add(judges)
        boss = factories.UserFactory(username=f"boss{tag}", is_staff=True)
        boss.groups.add(admins)
        jo.user.is_staff = True
        jo.user.save()
        jo.user.groups.add(judges, admins)
        self.users = {
            "ann": self.home.captain.user,
            "bob": self.home.players.get(name=f"Bob{tag}").user,
            "cat": self.away.captain.user,
            "dan": self.away.players.get(name=f"Dan{tag}").user,
            "eve": self.other.captain.user,
            "judge": judge,
            "boss": boss,
            "jo": jo.user,
        }
        self.seats = [f"Ann{tag}", f"Cat{tag}", f"Bob{tag}", f"Dan{tag}"]
        # Two subs on the season's list, for a partner who cannot come.
        self.subs = [player(name=f"Sam{tag}"), player(name=f"Val{tag}")]
        for sub in self.subs:
            SeasonSub.objects.create(season=self.season, player=sub)
        self.ids = {p.name: p.pk for team in (self.home, self.away) for p in team.players.all()} | {
            p.name: p.pk for p in self.subs
        }
        self.scripts: dict[int, list[dict[str, Any]]] = {}
        self.rng = random.Random(2026)  # the same tweaks every run (derandomized, like the rules)
        self.postponements_tried = 0

    # --- helpers ---------------------------------------------------------------------------

    def has_games(self) -> bool:
        return Game.objects.filter(match__week__season=self.season).exists()

    def has_deals(self) -> bool:
        return Deal.objects.filter(game__match__week__season=self.season).exists()

    def has_open_disputes(self) -> bool:
        return Dispute.objects.filter(
            game__match__week__season=self.season,
            status__in=(DisputeStatus.OPEN, DisputeStatus.IN_REVIEW),
        ).exists()

    def has_rivals(self) -> bool:
        return Deal.objects.filter(
            game__match__week__season=self.season, is_rival=True, settled_at__isnull=True
        ).exists()

    def has_finished_games(self) -> bool:
        return Game.objects.filter(
            match__week__season=self.season,
            status__in=(GameStatus.FINISHED, GameStatus.DISPUTED),
        ).exists()

    def user(self, role: str) -> Any:
        user = self.users[role]
        user.refresh_from_db()
        return type(user).objects.get(pk=user.pk)  # fresh: no cached groups or teams

    def games(self) -> list[Game]:
        return list(Game.objects.filter(match__week__season=self.season).order_by("pk"))

    def pick_game(self, index: int) -> Game | None:
        games = self.games()
        return games[index % len(games)] if games else None

    def snapshot(self) -> tuple[Any, ...]:
        games = tuple(
            Game.objects.filter(match__week__season=self.season)
            .order_by("pk")
            .values_list(
                "status",
                "deal_count",
                "home_score",
                "away_score",
                "home_vouched",
                "away_vouched",
                "home_rival",
                "away_rival",
            )
        )
        return (
            games,
            Deal.objects.filter(game__match__week__season=self.season).count(),
            Dispute.objects.filter(game__match__week__season=self.season).count(),
            tuple(Match.objects.filter(pk=self.match.pk).values_list("home_id", "away_id", "date")),
            tuple(
                Postponement.objects.filter(match=self.match)
                .order_by("pk")
                .values_list("status", "date")
            ),
            tuple(
                Forfeit.objects.filter(match=self.match)
                .order_by("pk")
                .values_list("team_id", "undone_at")
            ),
        )

    def audits(self) -> int:
        return AuditEntry.objects.filter(season=self.season).count()

    def attempt(self, call) -> None:
        """Run one action: refused (a domain error, or a 4xx answer) changes nothing; done
        writes at least one audit entry; a server error fails the test."""
        before, audits = self.snapshot(), self.audits()
        try:
            # as in production, what a write schedules after commit runs (the results version
            # moves, the standings are recomputed)
            with TestCase.captureOnCommitCallbacks(execute=True):
                outcome = call()
        except DomainError:
            outcome = False
        if outcome is False:
            assert self.snapshot() == before, "a refused action changed something"
            assert self.audits() == audits
        elif outcome is True and self.snapshot() != before:
            assert self.audits() > audits, "a change with no audit entry"

    def http(self, door: str, role: str, method: str, url: str, body: Any = None) -> bool:
        if door == "api":
            client = APIClient()
            client.force_authenticate(self.user(role))
            response = getattr(client, method)(url, body, format="json")
        else:
            client = Client()
            client.force_login(self.user(role))
            response = getattr(client, method)(url, body or {})
        assert response.status_code < 500, (url, response.status_code)
        if door == "web":  # the pages answer with a redirect and a message either way
            return True
        return response.status_code < 400

    def script(self, game: Game) -> list[dict[str, Any]]:
        if game.pk not in self.scripts:
            self.scripts[game.pk] = random_game_deals(
                random.Random(game.number), "partnership-121", game.first_dealer, 121
            )
        return self.scripts[game.pk]

    def tweak(self, deal: dict[str, Any]) -> dict[str, Any]:
        """The same deal with a number changed, as a second phone or a correction might."""
        other = {k: v for k, v in deal.items() if k != "cards"}
        pegging = list(other["pegging"])
        side = self.rng.randrange(2)
        pegging[side] = max(0, pegging[side] + self.rng.choice((-2, -1, 1)))
        other["pegging"] = pegging
        return other

    # --- rules -----------------------------------------------------------------------------

    @rule(
        role=st.sampled_from(ROLES),
        door=st.sampled_from(DOORS),
        sub=st.sampled_from(["", "", "", "home", "away", "both"]),
    )
    def start_game(self, role: str, door: str, sub: str) -> None:
        """The next game starts; or a partner cannot come and a sub from the season's list
        takes their seat (Bob's for the home team, Dan's for the away team, or both). Two subs
        for one team (both its players out) are tests/league/test_subs.py's: here no role could
        then play the team's deals, and the runs would stall on a game nobody finishes."""
        ann, cat, bob, dan = self.seats
        sam, val = (p.name for p in self.subs)
        seats = {
            "": self.seats,
            "home": [ann, cat, sam, dan],
            "away": [ann, cat, bob, sam],
            "both": [ann, cat, sam, val],
        }[sub]
        key = uuid.uuid4().hex
        if door == "service":
            self.attempt(
                lambda: bool(
                    game_services.game_start(
                        match=self.match, user=self.user(role), seats=seats, key=key
                    )
                )
            )
        elif door == "api":
            url = f"/api/matches/{self.match.pk}/games/"
            body = {"seats": seats, "first_dealer": 0, "key": key}
            self.attempt(lambda: self.http("api", role, "post", url, body))
        else:  # the match page's form names the seats by player id
            body = {f"seat_{n}": self.ids[name] for n, name in enumerate(seats)}
            body |= {"first_dealer": 0, "key": key}
            url = f"/matches/{self.match.pk}/start/"
            self.attempt(lambda: self.http("web", role, "post", url, body))

    def playing(self, index: int) -> Game | None:
        """A game under way if there is one (else any game): where deals go."""
        under_way = [g for g in self.games() if g.status == GameStatus.IN_PROGRESS]
        pool = under_way or self.games()
        return pool[index % len(pool)] if pool else None

    def send_deal(self, game: Game, role: str, door: str, number: int, data: dict) -> None:
        if door == "service":
            self.attempt(
                lambda: bool(
                    game_services.deal_record(
                        game=game,
                        user=self.user(role),
                        number=number,
                        data=data,
                        key=uuid.uuid4().hex,
                    )
                )
            )
        else:
            body = {"key": uuid.uuid4().hex, "number": number, **data}
            url = f"/api/games/{game.pk}/deals/"
            self.attempt(lambda: self.http("api", role, "post", url, body))

    @precondition(lambda self: self.has_games())
    @rule(
        role=st.sampled_from(["ann", "bob", "cat", "dan", "ann", "cat", "eve", "boss", "jo"]),
        door=st.sampled_from(DOORS[:2]),
        index=st.integers(0, 5),
        deals=st.sampled_from([1, 3, 30]),
    )
    def enter_deals(self, role: str, door: str, index: int, deals: int) -> None:
        game = self.playing(index)
        if game is None:
            return
        script = self.script(game)
        for _ in range(deals):
            game.refresh_from_db()
            number = game.deal_count + 1
            if game.status != GameStatus.IN_PROGRESS or number > len(script):
                return
            data = {k: v for k, v in script[number - 1].items() if k != "cards"}
            self.send_deal(game, role, door, number, data)

    @precondition(lambda self: self.has_deals())
    @rule(
        role=st.sampled_from(["ann", "bob", "cat", "dan", "eve"]),
        door=st.sampled_from(DOORS[:2]),
        index=st.integers(0, 5),
        same=st.booleans(),
    )
    def enter_a_deal_again(self, role: str, door: str, index: int, same: bool) -> None:
        """A second phone sends a deal already stored: the same numbers, or other ones."""
        game = self.pick_game(index)
        if game is None or not game.deal_count:
            return
        number = self.rng.randint(1, game.deal_count)
        stored = Deal.objects.get(game=game, number=number, is_current=True)
        data = stored_deal(stored)
        data = data if same else self.tweak(data)
        self.send_deal(game, role, door, number, data)

    @precondition(lambda self: self.has_deals())
    @rule(index=st.integers(0, 5), door=st.sampled_from(DOORS[:2]), partner=st.booleans())
    def enter_the_other_teams_deal_differently(self, index: int, door: str, partner: bool) -> None:
        """The other team's phone sends a deal with other numbers: a rival entry (a team's own
        second entry is a correction, never a rival)."""
        game = self.pick_game(index)
        if game is None or not game.deal_count:
            return
        number = self.rng.randint(1, game.deal_count)
        stored = Deal.objects.get(game=game, number=number, is_current=True)
        home = stored.entered_by_id in {self.users["ann"].pk, self.users["bob"].pk}
        role = ("dan" if partner else "cat") if home else ("bob" if partner else "ann")
        self.send_deal(game, role, door, number, self.tweak(stored_deal(stored)))

    @precondition(lambda self: self.has_deals())
    @rule(
        role=st.sampled_from(["ann", "bob", "cat", "dan", "eve", "judge"]),
        index=st.integers(0, 5),
        door=st.sampled_from(DOORS[:2]),
    )
    def correct_a_deal(self, role: str, index: int, door: str) -> None:
        game = self.pick_game(index)
        if game is None or not game.deal_count:
            return
        number = self.rng.randint(1, game.deal_count)
        deal = Deal.objects.get(game=game, number=number, is_current=True)
        data = self.tweak(stored_deal(deal))
        if door == "service":
            self.attempt(
                lambda: bool(
                    game_services.deal_correct(
                        game=game, number=number, user=self.user(role), data=data, reason="typo"
                    )
                )
            )
        else:
            body = {"number": number, "deal": data, "reason": "typo"}
            self.attempt(
                lambda: self.http("api", role, "post", f"/api/games/{game.pk}/corrections/", body)
            )

    @precondition(lambda self: self.has_finished_games())
    @rule(
        role=st.sampled_from(["ann", "bob", "cat", "dan", "eve", "jo", "boss"]),
        index=st.integers(0, 5),
        door=st.sampled_from(DOORS),
    )
    def confirm(self, role: str, index: int, door: str) -> None:
        game = self.pick_game(index)
        if game is None:
            return
        if door == "service":
            self.attempt(lambda: bool(game_services.game_confirm(game=game, user=self.user(role))))
        elif door == "api":
            self.attempt(lambda: self.http("api", role, "post", f"/api/games/{game.pk}/confirm/"))
        else:
            self.attempt(lambda: self.http("web", role, "post", f"/games/{game.pk}/confirm/"))

    @precondition(lambda self: self.has_games())
    @rule(
        role=st.sampled_from(ROLES),
        index=st.integers(0, 5),
        door=st.sampled_from(DOORS),
        reject=st.booleans(),
    )
    def dispute(self, role: str, index: int, door: str, reject: bool) -> None:
        game = self.pick_game(index)
        if game is None:
            return
        claim = "The crib was 4, not 6."
        if door == "service":
            service = dispute_services.game_reject if reject else dispute_services.dispute_raise
            self.attempt(lambda: bool(service(game=game, user=self.user(role), claim=claim)))
        elif door == "api":
            url = f"/api/games/{game.pk}/{'reject' if reject else 'disputes'}/"
            self.attempt(lambda: self.http("api", role, "post", url, {"claim": claim}))
        else:
            if reject:
                url, body = f"/games/{game.pk}/reject/", {"claim": claim}
            else:
                url, body = f"/games/{game.pk}/dispute/", {"dispute-claim": claim}
            self.attempt(lambda: self.http("web", role, "post", url, body))

    @precondition(lambda self: self.has_rivals())
    @rule(role=st.sampled_from(ROLES), index=st.integers(0, 20), door=st.sampled_from(DOORS))
    def settle_a_rival(self, role: str, index: int, door: str) -> None:
        rivals = list(
            Deal.objects.filter(
                game__match__week__season=self.season, is_rival=True, settled_at__isnull=True
            ).order_by("pk")
        )
        if not rivals:
            return
        rival = rivals[index % len(rivals)]
        if door == "service":
            self.attempt(
                lambda: bool(game_services.rival_withdraw(rival=rival, user=self.user(role)))
            )
        elif door == "api":
            self.attempt(lambda: self.http("api", role, "post", f"/api/deals/{rival.pk}/withdraw/"))
        else:
            url = f"/games/{rival.game_id}/rivals/{rival.pk}/withdraw/"
            self.attempt(lambda: self.http("web", role, "post", url))

    @precondition(lambda self: self.has_open_disputes())
    @rule(
        role=st.sampled_from(["judge", "jo", "boss", "ann"]),
        index=st.integers(0, 20),
        door=st.sampled_from(["service", "admin"]),
        decision=st.sampled_from(["dismiss", "resolve", "correct"]),
    )
    def rule_on_a_dispute(self, role: str, index: int, door: str, decision: str) -> None:
        open_ = list(
            Dispute.objects.filter(
                game__match__week__season=self.season,
                status__in=(DisputeStatus.OPEN, DisputeStatus.IN_REVIEW),
            ).order_by("pk")
        )
        if not open_:
            return
        dispute = open_[index % len(open_)]
        game = dispute.game
        corrections: dict[int, Any] = {}
        if decision == "correct" and game.deal_count:
            deal = Deal.objects.get(game=game, number=game.deal_count, is_current=True)
            corrections = {deal.number: self.tweak(stored_deal(deal))}
        if door == "service":
            self.attempt(
                lambda: bool(
                    dispute_services.dispute_rule(
                        dispute=dispute,
                        judge=self.user(role),
                        ruling="Ruled at the table.",
                        rule_reference="S-9",
                        dismiss=decision == "dismiss",
                        corrections=corrections,
                    )
                )
            )
        else:
            body = {
                "decision": "dismiss" if decision == "dismiss" else "resolve",
                "ruling_text": "Ruled at the table.",
                "rule": "S-9",
                "corrections": json.dumps({str(k): v for k, v in corrections.items()}),
            }
            url = f"/admin/league/dispute/{dispute.pk}/change/"
            self.attempt(
                lambda: self.http("admin", role, "post", url, body) and self._ruled(dispute)
            )

    def _ruled(self, dispute: Dispute) -> bool:
        dispute.refresh_from_db()
        return dispute.is_closed

    @precondition(lambda self: self.has_games())
    @rule(
        role=st.sampled_from(["judge", "jo", "boss", "cat"]),
        index=st.integers(0, 5),
        door=st.sampled_from(["service", "admin"]),
    )
    def void(self, role: str, index: int, door: str) -> None:
        game = self.pick_game(index)
        if game is None:
            return
        if door == "service":
            self.attempt(
                lambda: bool(game_services.game_void(game=game, user=self.user(role), reason="x"))
            )
        else:
            body = {"action": "void_games", "_selected_action": [game.pk]}
            self.attempt(lambda: self.http("admin", role, "post", "/admin/league/game/", body))

    @precondition(lambda self: self.has_games())
    @rule(
        role=st.sampled_from(["dan", "eve", "judge"]),
        index=st.integers(0, 5),
        door=st.sampled_from(DOORS),
    )
    def cancel(self, role: str, index: int, door: str) -> None:
        """A game started by mistake is cancelled by its teams, before its first deal only."""
        game = self.pick_game(index)
        if game is None:
            return
        if door == "service":
            user = self.user(role)
            self.attempt(lambda: bool(game_services.game_cancel(game=game, user=user)))
        else:
            url = f"/api/games/{game.pk}/cancel/" if door == "api" else f"/games/{game.pk}/cancel/"
            self.attempt(lambda: self.http(door, role, "post", url))

    @precondition(lambda self: self.has_finished_games())
    @rule(door=st.sampled_from(["service", "command"]), hours=st.sampled_from([1, 80]))
    def the_clock_moves_on(self, door: str, hours: int) -> None:
        """Hours pass: the league closes what nobody confirmed or disputed in its grace period
        (72 h), never a disputed game nor one whose teams disagree on a deal."""
        games = Game.objects.filter(match__week__season=self.season, finished_at__isnull=False)
        games.update(finished_at=F("finished_at") - timedelta(hours=hours))
        if door == "service":
            self.attempt(lambda: bool(results_close()))
        else:
            self.attempt(
                lambda: call_command("close_unconfirmed_results", stdout=StringIO()) or True
            )

    @precondition(lambda self: self.has_games())
    @rule(
        role=st.sampled_from(["boss", "judge", "jo", "ann", "eve"]),
        door=st.sampled_from(["service", "api", "web", "admin"]),
        home=st.booleans(),
        now=st.integers(0, 3),
    )
    def forfeit(self, role: str, door: str, home: bool, now: int) -> None:
        """A no-show: the games left go to the other team (a judge or league admin not
        playing decides; a forfeit replaces a game under way). Once in four tries, so the
        runs still play games to their disputes and rulings."""
        if now:
            return
        team = self.home if home else self.away
        reason = "They did not turn up."
        if door == "service":
            self.attempt(
                lambda: bool(
                    match_forfeit(match=self.match, team=team, reason=reason, user=self.user(role))
                )
            )
        elif door == "admin":
            body = {"match": self.match.pk, "team": team.pk, "reason": reason}
            url = "/admin/league/forfeit/add/"
            self.attempt(lambda: self.http("admin", role, "post", url, body) and self._forfeited())
        else:
            url = (
                f"/api/matches/{self.match.pk}/forfeit/"
                if door == "api"
                else f"/matches/{self.match.pk}/forfeit/"
            )
            body = {"team": team.pk, "reason": reason}
            self.attempt(lambda: self.http(door, role, "post", url, body))

    def _forfeited(self) -> bool:
        return Forfeit.objects.filter(match=self.match, undone_at__isnull=True).exists()

    @precondition(lambda self: self._forfeited())
    @rule(
        role=st.sampled_from(["judge", "jo", "boss"]),
        door=st.sampled_from(["service", "api", "web"]),
    )
    def undo_the_forfeit(self, role: str, door: str) -> None:
        reason = "They were at the other bar."
        if door == "service":
            self.attempt(
                lambda: bool(forfeit_undo(match=self.match, reason=reason, user=self.user(role)))
            )
        else:
            url = (
                f"/api/matches/{self.match.pk}/forfeit/undo/"
                if door == "api"
                else f"/matches/{self.match.pk}/forfeit/undo/"
            )
            self.attempt(lambda: self.http(door, role, "post", url, {"reason": reason}))

    def makeup(self, days: int) -> Any:
        week = Match.objects.select_related("week").get(pk=self.match.pk).week
        return week.date + timedelta(days=days)

    def may_postpone(self) -> bool:
        """No game of the match counts yet (a match can be postponed at all), and this run has
        tried fewer than three postponements: so the runs still play their games."""
        if self.postponements_tried >= 3:
            return False
        return not Game.objects.filter(match=self.match).exclude(status=GameStatus.VOID).exists()

    @precondition(lambda self: self.may_postpone())
    @rule(
        role=st.sampled_from(["ann", "bob", "cat", "dan", "eve", "boss", "jo", "judge"]),
        door=st.sampled_from(DOORS),
        days=st.sampled_from([0, 2, 7, 14, 15, 30]),
        decide=st.booleans(),
    )
    def postpone(self, role: str, door: str, days: int, decide: bool) -> None:
        """A player of one team asks to play the match ``days`` after its night, or the
        organiser decides its date (0: back on its night). 14 is the season's make-up
        deadline: later is refused; a judge, a third team or a league admin does not ask, and
        only a league admin decides. The match page has one form: it decides for a league
        admin and asks for the others."""
        self.postponements_tried += 1
        date, reason = self.makeup(days), "Our van broke down."
        service = match_postpone if decide else postponement_ask
        if door == "service":
            self.attempt(
                lambda: bool(
                    service(match=self.match, user=self.user(role), date=date, reason=reason)
                )
            )
            return
        body = {"date": date.isoformat(), "reason": reason}
        if door == "api":
            route = "postpone" if decide else "postponements"
            url = f"/api/matches/{self.match.pk}/{route}/"
        else:
            url = f"/matches/{self.match.pk}/postpone/"
        self.attempt(lambda: self.http(door, role, "post", url, body))

    def has_asked_postponements(self) -> bool:
        return Postponement.objects.filter(
            match=self.match, status=PostponementStatus.ASKED
        ).exists()

    @precondition(lambda self: self.has_asked_postponements())
    @rule(
        who=st.sampled_from(["other", "other partner", "asker", "eve", "boss"]),
        door=st.sampled_from(DOORS),
        accept=st.booleans(),
    )
    def answer_the_postponement(self, who: str, door: str, accept: bool) -> None:
        """The other team accepts (the match moves) or declines; nobody else answers (the
        asking team, a third team's captain, a league admin)."""
        asked = Postponement.objects.filter(match=self.match).order_by("-pk").first()
        if asked is None:
            return
        home_asked = asked.team_id == self.home.pk
        role = {
            "other": "cat" if home_asked else "ann",
            "other partner": "dan" if home_asked else "bob",
            "asker": "ann" if home_asked else "cat",
        }.get(who, who)
        if door == "service":
            self.attempt(
                lambda: bool(
                    postponement_answer(postponement=asked, user=self.user(role), accept=accept)
                )
            )
        elif door == "api":
            url = f"/api/postponements/{asked.pk}/{'accept' if accept else 'decline'}/"
            self.attempt(lambda: self.http("api", role, "post", url))
        else:
            url = f"/postponements/{asked.pk}/answer/"
            body = {"answer": "accept" if accept else "decline"}
            self.attempt(lambda: self.http("web", role, "post", url, body))

    @precondition(lambda self: self.has_games())
    @rule(role=st.sampled_from(["boss", "judge", "ann"]), rename=st.booleans())
    def edit_the_match_or_a_team(self, role: str, rename: bool) -> None:
        if rename:
            team = self.away
            name = f"{team.name.split(' ')[0]} {uuid.uuid4().hex[:6]}"
            self.attempt(lambda: bool(team_update(team=team, user=self.user(role), name=name)))
        else:  # swap home and away: refused once a game is played
            match = Match.objects.get(pk=self.match.pk)
            self.attempt(
                lambda: bool(
                    match_update(
                        match=match, user=self.user(role), home=match.away, away=match.home
                    )
                )
            )

    def teardown(self) -> None:
        if hasattr(self, "season"):
            audit = AuditEntry.objects.filter(season=self.season)
            SEEN.update(audit.values_list("action", flat=True))
            subs = GameSeat.objects.filter(game__match__week__season=self.season, is_sub=True)
            SUBS_SEATED.extend(subs.values_list("game_id", flat=True))

    # --- what must always hold -------------------------------------------------------------

    @invariant()
    def served_standings_are_a_fresh_recompute_of_confirmed_games(self) -> None:
        if not hasattr(self, "season"):
            return
        self.season.refresh_from_db()
        served = standings_for_season(self.season)
        fresh = compute_standings(self.season)
        assert [_names(r) for r in served["standings"]] == [_names(r) for r in fresh["standings"]]
        assert served["seeding"] == fresh["seeding"]
        # The standings read each match's tally: after every change through every door it is
        # the sum of the match's games as they are, with nothing left for the worker to mend.
        assert wrong_tallies(self.season.pk) == []

    @invariant()
    def nothing_disputed_counts_and_no_finished_game_is_stranded(self) -> None:
        if not hasattr(self, "season"):
            return
        for game in self.games():
            open_disputes = game.disputes.filter(
                status__in=(DisputeStatus.OPEN, DisputeStatus.IN_REVIEW)
            ).exists()
            if open_disputes and game.winner_id and game.status != GameStatus.VOID:
                assert game.status == GameStatus.DISPUTED
            if game.status == GameStatus.FINISHED:
                waiting = game_services.awaiting_teams_of(game)
                assert waiting, "a finished game nobody is asked to confirm"
                for team in waiting:
                    players = [p.user for p in team.players.all() if p.user]
                    settle = [
                        can(u, Action.CONFIRM_GAME, game)
                        or any(
                            can(u, Action.WITHDRAW_RIVAL, r)
                            for r in game.deals.filter(is_rival=True, settled_at__isnull=True)
                        )
                        for u in players
                    ]
                    assert any(settle), f"{team} cannot settle {game}"

    @invariant()
    def a_sub_sits_beside_a_player_of_the_team_they_sit_for(self) -> None:
        if not hasattr(self, "season"):
            return
        listed = set(SeasonSub.objects.filter(season=self.season).values_list("player", flat=True))
        for game in self.games():
            seats = {s.seat: s for s in GameSeat.objects.filter(game=game).select_related("player")}
            for seat, sat in seats.items():
                if not sat.is_sub:
                    continue
                assert sat.player_id in listed, f"{sat.player} sat as a sub off the list"
                partner = seats[(seat + 2) % 4]
                if partner.is_sub:  # both of the team's players out: two subs sit for it
                    others = [seats[(seat + 1) % 4], seats[(seat + 3) % 4]]
                    assert not all(o.is_sub for o in others), "a table of subs alone"
                    continue
                team = self.home if seat % 2 == game.home_side else self.away
                assert team.players.filter(pk=partner.player_id).exists(), (
                    f"{sat.player} sits for {team} beside {partner.player}, not of the team"
                )

    @invariant()
    def a_postponed_match_is_played_within_its_deadline(self) -> None:
        if not hasattr(self, "season"):
            return
        match = Match.objects.select_related("week__season").get(pk=self.match.pk)
        if match.date is not None:
            assert match.date <= checks.last_makeup_day(match), "past the make-up deadline"
        answered = {PostponementStatus.ACCEPTED, PostponementStatus.DECIDED}
        latest = (
            Postponement.objects.filter(match=match, status__in=answered).order_by("-pk").first()
        )
        assert match.when == (latest.date if latest else match.week.date)
        asked = Postponement.objects.filter(match=match, status=PostponementStatus.ASKED)
        assert asked.count() <= 1, "two postponements waiting for an answer"


def _admin_http(self: LeagueNight, door: str, role: str, method: str, url: str, body: Any = None):
    if door != "admin":
        return _http(self, door, role, method, url, body)
    client = Client()
    client.force_login(self.user(role))
    response = client.post(url, body or {})
    assert response.status_code < 500, (url, response.status_code)
    return response.status_code in (200, 302)


_http = LeagueNight.http
LeagueNight.http = _admin_http  # type: ignore[method-assign]


@pytest.mark.slow  # the slowest test (about 100 s idle): 150 runs of 50 steps through every door
@pytest.mark.django_db
def test_games_driven_through_every_door_and_role_keep_the_standings_right():
    LeagueNight.TestCase.settings = settings(
        # Derandomized runs follow the machine's source: an edit to it redraws them. 150 runs
        # reach every kind of change below (25 fell short after one edit; 50 once games were
        # kept in order, one at a time at the table; 100 once subs and postponements joined).
        max_examples=150,
        stateful_step_count=50,
        deadline=None,
        derandomize=True,  # the same runs every time: a failure can be replayed
        suppress_health_check=list(HealthCheck),
    )
    from hypothesis.stateful import run_state_machine_as_test

    SEEN.clear()
    SUBS_SEATED.clear()
    run_state_machine_as_test(LeagueNight, settings=LeagueNight.TestCase.settings)
    # the runs went through every kind of change (so the invariants were really put to work)
    assert {
        "game_start",
        "deal_record",
        "deal_rival",
        "deal_correct",
        "game_confirm",
        "dispute_raise",
        "dispute_rule",
        "game_void",
        "game_cancel",
        "rival_withdraw",
        "team_update",
        "game_close",
        "forfeit_record",
        "forfeit_undo",
        "postponement_ask",
        "postponement_answer",
        "match_postpone",
    } <= SEEN, sorted(SEEN)
    assert SUBS_SEATED, "no run seated a sub"
