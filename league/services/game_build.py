"""Many games at once, for a trusted bulk writer (the season import): a game built in memory
through the same checks score entry makes."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from league.checks import team_of
from league.kernel import lifecycle
from league.kernel.audit import AuditAction, audit_entry
from league.kernel.entries import read_deal
from league.kernel.lifecycle import Event
from league.kernel.permissions import Actor, actor_of
from league.models import (
    Deal,
    DealtHand,
    Game,
    GameSeat,
    GameStatus,
    Match,
    Player,
)
from league.services.deals import _apply_scores, _new_deal, _settle, _vouch, scorer_refusal
from league.services.games import (
    _check_first_dealer,
    _check_number,
    _check_seating,
    _confirm_audit,
    _home_side,
    _start_audit,
    _starting_scores,
    games_per_match,
)
from scoring.errors import InvalidDealError
from scoring.game import Game as ScoredGame

# --- Many games at once, for a trusted bulk writer (the season import) --------------------------


class GameBuild:
    """A game built in memory, deal by deal, through the checks ``game_start``, ``deal_record``
    and ``game_confirm`` make (the same functions, not copies), for a trusted caller that
    stores many games at once with bulk inserts: nothing here touches the database, so a whole
    season is validated before its first row is written.

    ``match`` and its week, season and teams may be unsaved; ``rosters`` are the players of the
    home and away teams. After :meth:`finish`, save ``game``, then ``seats`` and
    :meth:`deal_rows` (their foreign keys follow the saved game), then :meth:`audit_entries`.
    """

    def __init__(
        self,
        *,
        match: Match,
        number: int,
        players: Sequence[Player],
        first_dealer: int,
        user: Actor,
        rosters: tuple[Sequence[Player], Sequence[Player]],
        subs: Collection[str] = frozenset(),
    ) -> None:
        season = match.week.season
        self.variant = season.game_variant
        self.user = user
        self.players = list(players)
        _check_seating(self.players, self.variant)
        home_side = _home_side(match, self.players, self.variant, rosters, subs=subs)
        _check_first_dealer(first_dealer, self.variant)
        _check_number(number, games_per_match(match))
        self.game = Game(
            match=match,
            number=number,
            first_dealer=first_dealer,
            home_side=home_side,
            entered_by=actor_of(user),
            **_starting_scores(match, home_side, first_dealer),
        )
        self.seats = [
            GameSeat(game=self.game, seat=seat, player=p, is_sub=p.name in subs)
            for seat, p in enumerate(self.players)
        ]
        self.scored = ScoredGame(self.variant, first_dealer=first_dealer, target=season.target)
        self.normals: list[dict[str, Any]] = []
        self.deals: list[Deal] = []
        self.dealt: list[DealtHand] = []  # the cards players recorded as dealt to them
        self.confirmed = False
        self._seat_names = [p.name for p in self.players]
        home, away = match.home.name, match.away.name
        self._side_names = [home, away] if home_side == 0 else [away, home]

    @property
    def is_over(self) -> bool:
        """Whether a side has reached the target: no deal may follow."""
        return self.scored.finished

    def record(self, data: Mapping[str, Any]) -> None:
        """The next deal, refused as ``deal_record`` refuses it (ValidationFailed)."""
        number = len(self.normals) + 1
        sent = read_deal(data, variant=self.variant)
        normal = sent.normal
        try:
            self.scored.record(sent.entry)
        except InvalidDealError as exc:
            raise scorer_refusal(
                exc, seats=self._seat_names, sides=self._side_names, number=number
            ) from None
        self.normals.append(normal)

    def finish(self) -> None:
        """Scores, outcome and state from the deals; a finished game is confirmed as
        ``game_confirm`` confirms for a trusted caller (it vouches for both teams)."""
        game = self.game
        _apply_scores(game, self.scored, len(self.normals))
        _vouch(game, team_of(self.user, game.match), len(self.normals))
        finished = self.scored.finished
        _settle(game, user=self.user, finished=finished, stored=False)
        if game.status == GameStatus.FINISHED:
            lifecycle.require(Event.CONFIRM, game.status)
            game.home_vouched = game.away_vouched = game.deal_count
            _settle(game, user=self.user, finished=finished, stored=False)
            self.confirmed = True

    def deal_rows(self) -> list[Deal]:
        """The game's deals as ``deal_record`` stores them (built once, when needed, so a
        whole season checked in memory does not hold every row at once)."""
        if not self.deals:
            self.deals = [
                _new_deal(
                    self.game,
                    number,
                    1,
                    normal,
                    self.scored.deals[number - 1].scores_after,
                    actor_of(self.user),
                )
                for number, normal in enumerate(self.normals, start=1)
            ]
        return self.deals

    def release(self) -> None:
        """Let the deals go once they are stored (the game row and its scores stay)."""
        self.deals, self.normals, self.seats, self.dealt = [], [], [], []

    def audit_entries(self) -> list[Any]:
        """The audit trail the services write for this game (start, each deal, the
        confirmation), unsaved, for a bulk insert once the game and its deals have keys."""
        game, user = self.game, self.user
        entries = [
            audit_entry(
                actor=user,
                action=AuditAction.GAME_START,
                obj=game,
                after=_start_audit(
                    game.number,
                    self.players,
                    game.first_dealer,
                    subs=[s.player.name for s in self.seats if s.is_sub],
                ),
            )
        ]
        entries += [
            audit_entry(
                actor=user, action=AuditAction.DEAL_RECORD, obj=deal, after={"number": n, **normal}
            )
            for n, (deal, normal) in enumerate(zip(self.deals, self.normals, strict=True), 1)
        ]
        if self.confirmed:
            entries.append(
                audit_entry(
                    actor=user,
                    action=AuditAction.GAME_CONFIRM,
                    obj=game,
                    after=_confirm_audit(game),
                )
            )
        return entries
