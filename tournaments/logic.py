"""The rules of a tournament, pure (no Django, no database), so each can be property-tested.

What lives here: a game's points and spread, the standings and their tie-break chain, the cut
(how many qualify), the seating of a qualifying round (the circle method, with a fallback for a
field that changed), and what a night ends with (places, club points, money). The maths the
league shares (the skunk ladder, the tie-break metrics, the draw, the bracket and a best-of-N
match) is ``contest``'s, called from here. Names of entrants are the keys throughout: they are
unique in a tournament, and the archive format speaks in them.

>>> rules = TournamentRules()
>>> game_points(rules, winner=True, loser_score=95)
2
>>> qualifier_count(17, one_in=4)
5
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, TypeVar

from contest.draw import draw_ticket
from contest.points import GamePoints, Ladder, skunk_defaults
from contest.tiebreaks import METRICS, TOURNAMENT_TIEBREAKS, Value

T = TypeVar("T", bound=Hashable)


class RulesError(ValueError):
    """A rule setting that cannot work (an unknown tie-break, a target below 2). ``code`` names
    the refusal, ``field`` the setting and ``params`` its values, so that a caller can say it
    again in its reader's language; the text itself stays English.

    >>> e = RulesError("unknown_tiebreak", "tiebreaks", key="luck", known="games_won")
    >>> (e.code, e.field, e.params["key"], str(e))
    ('unknown_tiebreak', 'tiebreaks', 'luck', "Unknown tie-break 'luck'; known: games_won.")
    """

    ENGLISH = {
        "unknown_tiebreak": "Unknown tie-break {key!r}; known: {known}.",
        "target_too_low": "The target must be at least {least}.",
        "qualify_one_in_too_low": "qualify_one_in must be at least {least}.",
        "best_of_not_odd": "A playoff match is best of an odd number of games (1, 3, 5...).",
    }

    def __init__(self, code: str, field: str, **params: Any) -> None:
        super().__init__(self.ENGLISH[code].format(**params))
        self.code = code
        self.field = field
        self.params = params


@dataclass(frozen=True)
class TournamentRules:
    """A tournament's settings, as the archive format's ``rules`` names them (ACC defaults)."""

    target: int = 121
    skunk_margin: int = 31
    double_skunk_margin: int = 61
    win: int = 2
    skunk: int = 3
    double_skunk: int = 3  # ACC: a double skunk earns nothing more than a skunk
    loss: int = 0
    bye_game_points: int = 2
    bye_spread: int = 0
    tiebreaks: tuple[str, ...] = ("games_won", "spread", "draw")
    qualify_one_in: int = 4
    playoff_best_of: int = 3

    def __post_init__(self) -> None:
        for key in self.tiebreaks:
            if key not in TOURNAMENT_TIEBREAKS:
                raise RulesError(
                    "unknown_tiebreak", "tiebreaks", key=key, known=", ".join(TOURNAMENT_TIEBREAKS)
                )
        if self.target < 2:
            raise RulesError("target_too_low", "target", least=2)
        if self.qualify_one_in < 1:
            raise RulesError("qualify_one_in_too_low", "qualify_one_in", least=1)
        if self.playoff_best_of < 1 or self.playoff_best_of % 2 == 0:
            raise RulesError("best_of_not_odd", "playoff_best_of", value=self.playoff_best_of)

    @property
    def ladder(self) -> Ladder:
        """The skunk ladder these rules play: the margins and what each rung pays."""
        return Ladder(
            GamePoints(
                win=self.win, skunk=self.skunk, double_skunk=self.double_skunk, loss=self.loss
            ),
            skunk_margin=self.skunk_margin,
            double_skunk_margin=self.double_skunk_margin,
        )

    @classmethod
    def for_target(cls, target: int, **settings: Any) -> TournamentRules:
        """The rules of an event played to ``target``, its skunk margins from the one table
        leagues read too (``contest.points.skunk_defaults``): the ACC's 31 and 61 at 61 and
        121, the house convention elsewhere.

        >>> r = TournamentRules.for_target(181)
        >>> r.skunk_margin, r.double_skunk_margin
        (46, 91)
        """
        margins = skunk_defaults(target)
        return cls(
            target=target,
            skunk_margin=margins.skunk_margin,
            double_skunk_margin=margins.double_skunk_margin,
            **settings,
        )

    def as_archive(self) -> dict[str, Any]:
        """The ``rules`` object of the archive format, in its order."""
        return {
            "target": self.target,
            "skunk_margin": self.skunk_margin,
            "double_skunk_margin": self.double_skunk_margin,
            "game_points": {
                "win": self.win,
                "skunk": self.skunk,
                "double_skunk": self.double_skunk,
                "loss": self.loss,
            },
            "bye": {"game_points": self.bye_game_points, "spread": self.bye_spread},
            "tiebreaks": list(self.tiebreaks),
            "qualify_one_in": self.qualify_one_in,
            "playoff_best_of": self.playoff_best_of,
        }

    @classmethod
    def from_archive(cls, data: Mapping[str, Any]) -> TournamentRules:
        """The rules from an archive's ``rules`` object; a missing setting keeps its default."""
        points = data.get("game_points") or {}
        bye = data.get("bye") or {}
        default = cls()
        return cls(
            target=int(data.get("target", default.target)),
            skunk_margin=int(data.get("skunk_margin", default.skunk_margin)),
            double_skunk_margin=int(data.get("double_skunk_margin", default.double_skunk_margin)),
            win=int(points.get("win", default.win)),
            skunk=int(points.get("skunk", default.skunk)),
            double_skunk=int(points.get("double_skunk", default.double_skunk)),
            loss=int(points.get("loss", default.loss)),
            bye_game_points=int(bye.get("game_points", default.bye_game_points)),
            bye_spread=int(bye.get("spread", default.bye_spread)),
            tiebreaks=tuple(data.get("tiebreaks", default.tiebreaks)),
            qualify_one_in=int(data.get("qualify_one_in", default.qualify_one_in)),
            playoff_best_of=int(data.get("playoff_best_of", default.playoff_best_of)),
        )


# --------------------------------------------------------------------------------------------
# One game
# --------------------------------------------------------------------------------------------


def check_loser_score(rules: TournamentRules, loser_score: Any) -> int:
    """The loser's score as a whole number from 0 to ``target - 1``, else :class:`ValueError`
    with a sentence for the table.

    >>> check_loser_score(TournamentRules(), 121)
    Traceback (most recent call last):
    ...
    ValueError: The loser's score must be a whole number from 0 to 120; 121 was given.
    """
    if isinstance(loser_score, bool) or not isinstance(loser_score, int):
        raise ValueError(
            f"The loser's score must be a whole number from 0 to {rules.target - 1}; "
            f"{loser_score!r} was given."
        )
    if not 0 <= loser_score < rules.target:
        raise ValueError(
            f"The loser's score must be a whole number from 0 to {rules.target - 1}; "
            f"{loser_score} was given."
        )
    return loser_score


def margin(rules: TournamentRules, loser_score: int) -> int:
    """The winner is counted at the target, whatever they pegged past it."""
    return rules.target - loser_score


def game_points(rules: TournamentRules, *, winner: bool, loser_score: int) -> int:
    """What one side of a game earns (the rules' :attr:`~TournamentRules.ladder`)."""
    return rules.ladder.earned(won=winner, margin=margin(rules, loser_score))


class Result(NamedTuple):
    """A decided qualifying game between ``first`` and ``second`` (a tuple: a big event's
    standings build thousands of them, and a frozen dataclass is several times slower to make).

    ``spreads``: each side's own signed spread when ACC Rule 12.2 left the two sides different
    figures (12.2(b): a 16-point win against a 17-point loss; 12.2(e): a loss for both, when
    ``winner`` is ""); a side with a plus figure won, a side with a minus figure lost."""

    first: str
    second: str
    winner: str
    loser_score: int
    spreads: tuple[int, int] | None = None

    @property
    def loser(self) -> str:
        return self.second if self.winner == self.first else self.first


# --------------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------------


@dataclass
class EntrantRecord:
    entrant: str
    played: int = 0
    won: int = 0
    lost: int = 0
    game_points: int = 0
    skunks: int = 0
    spread: int = 0
    plus_spread: int = 0  # the plus column alone: the spreads of the games won
    h2h_points: dict[str, int] = field(default_factory=dict)  # opponent -> game points earned
    playoff_wins: dict[str, int] = field(default_factory=dict)  # opponent -> tie-break playoffs

    @property
    def team_id(self) -> str:
        """The record's identity as the group metrics read it (head to head, the playoff)."""
        return self.entrant

    def as_row(self, rank: int) -> dict[str, Any]:
        """The row of the format's ``standings``, in its order."""
        return {
            "rank": rank,
            "entrant": self.entrant,
            "played": self.played,
            "won": self.won,
            "lost": self.lost,
            "game_points": self.game_points,
            "skunks": self.skunks,
            "spread": self.spread,
        }


@dataclass
class Standing:
    rank: int  # shared by entrants the chain (less the draw) cannot separate
    record: EntrantRecord
    decided_by: str  # "game_points", a tie-break key, or "" for an entrant alone on its rank


def records(
    rules: TournamentRules,
    entrants: Iterable[str],
    results: Iterable[Result],
    byes: Iterable[str] = (),
    playoffs: Iterable[tuple[str, str]] = (),
) -> dict[str, EntrantRecord]:
    """Each entrant's record from decided games and byes (a bye is a game played and won);
    ``playoffs``: the tie-break playoffs played, ``(winner, loser)``, which count for the
    ``playoff`` tie-break only."""
    out = {name: EntrantRecord(name) for name in entrants}
    ladder = rules.ladder
    for first, second, winner, loser_score, spreads in results:
        if spreads is not None:
            for name, own, other in ((first, spreads[0], second), (second, spreads[1], first)):
                before = out[name].game_points
                _one_side(out[name], own, ladder)
                h2h = out[name].h2h_points
                h2h[other] = h2h.get(other, 0) + out[name].game_points - before
            continue
        w, lose = out[winner], out[second if winner == first else first]
        m = rules.target - loser_score
        w.played += 1
        lose.played += 1
        w.won += 1
        lose.lost += 1
        w.spread += m
        w.plus_spread += m
        lose.spread -= m
        lose.game_points += ladder.points.loss
        level = ladder.level(m)
        earned = ladder.points.earned(won=True, level=level)
        w.game_points += earned
        w.h2h_points[lose.entrant] = w.h2h_points.get(lose.entrant, 0) + earned
        lose.h2h_points[w.entrant] = lose.h2h_points.get(w.entrant, 0) + ladder.points.loss
        if level:
            w.skunks += 1
    for winner_name, loser_name in playoffs:
        if winner_name in out and loser_name in out:
            wins = out[winner_name].playoff_wins
            wins[loser_name] = wins.get(loser_name, 0) + 1
    for name in byes:
        rec = out[name]
        rec.played += 1
        rec.won += 1
        rec.game_points += rules.bye_game_points
        rec.spread += rules.bye_spread
        rec.plus_spread += max(rules.bye_spread, 0)
    return out


def _one_side(rec: EntrantRecord, own: int, ladder: Ladder) -> None:
    """One side of a game whose two sides have their own figures: a win when ``own`` is a
    plus figure (its game points by that margin), a loss otherwise."""
    rec.played += 1
    rec.spread += own
    if own > 0:
        rec.plus_spread += own
        rec.won += 1
        level = ladder.level(own)
        rec.game_points += ladder.points.earned(won=True, level=level)
        if level:
            rec.skunks += 1
    else:
        rec.lost += 1
        rec.game_points += ladder.points.loss


def rank(
    rules: TournamentRules, recs: Iterable[EntrantRecord], *, draw_seed: int
) -> list[Standing]:
    """Entrants in order: game points, then the tie-breaks in order. Entrants level on all of
    them before ``draw`` share a rank; the draw (always last, even when not configured) orders
    them within it, so the list is a strict order: the seeding, and who makes the cut.

    A metric that reads the group still level (head to head, the playoff) is asked of each
    group in turn: the entrants level on everything before it, and only they."""
    chain: list[str] = []
    for key in rules.tiebreaks:
        if key == "draw":
            break
        chain.append(key)
    metrics = [METRICS[k] for k in chain]
    recs = list(recs)
    keys: dict[str, tuple[Value, ...]] = {r.entrant: (r.game_points,) for r in recs}
    for metric in metrics:
        groups: dict[tuple[Value, ...], list[EntrantRecord]] = {}
        for r in recs:
            groups.setdefault(keys[r.entrant], []).append(r)
        for group in groups.values():
            values = metric.values(group, draw_seed=draw_seed)
            for r, value in zip(group, values, strict=True):
                keys[r.entrant] = (*keys[r.entrant], value)

    def level(rec: EntrantRecord) -> tuple[Value, ...]:
        return keys[rec.entrant]

    # Sorting by the ticket first and then (stably) by the chain keeps the draw as the last
    # word; one sort of tuples each would mix a hex string with negated numbers.
    ordered = sorted(recs, key=lambda r: draw_ticket(draw_seed, r.entrant), reverse=True)
    ordered.sort(key=level, reverse=True)
    out: list[Standing] = []
    levels = [level(r) for r in ordered]
    names = ["game_points", *chain]
    for i, rec in enumerate(ordered):
        shared = out[-1].rank if i and levels[i] == levels[i - 1] else i + 1
        out.append(Standing(shared, rec, _decided_by(levels, i, names)))
    return out


def playoff_due(
    rules: TournamentRules,
    ranked: Sequence[Standing],
    qualifiers: Sequence[str],
    *,
    withdrawn: frozenset[str] = frozenset(),
) -> list[str]:
    """The entrants who must play a one-game playoff before the cut can be made: where the
    chain ends in ``playoff``, those sharing the last qualifier's rank when that rank reaches
    past the cut (some of them in, some out). The draw never settles them; empty otherwise.

    >>> rules = TournamentRules(tiebreaks=("games_won", "playoff"))
    >>> a, b, c = (EntrantRecord(n, won=w, game_points=2 * w) for n, w in (("A", 2), ("B", 1),
    ...                                                                   ("C", 1)))
    >>> ranked = rank(rules, [a, b, c], draw_seed=0)
    >>> playoff_due(rules, ranked, [s.record.entrant for s in ranked[:2]])
    ['B', 'C']
    """
    if "playoff" not in rules.tiebreaks or not qualifiers:
        return []
    last = qualifiers[-1]
    line = next(s.rank for s in ranked if s.record.entrant == last)
    level = [
        s.record.entrant for s in ranked if s.rank == line and s.record.entrant not in withdrawn
    ]
    if all(name in qualifiers for name in level):
        return []
    return sorted(level)


def _decided_by(keys: Sequence[tuple[Value, ...]], i: int, names: Sequence[str]) -> str:
    """The metric that separated entrant ``i`` from its nearest neighbour ("draw" if none)."""
    depth = -1
    for j in (i - 1, i + 1):
        if 0 <= j < len(keys):
            same = 0
            while same < len(keys[i]) and keys[i][same] == keys[j][same]:
                same += 1
            depth = max(depth, same)
    if depth < 0:
        return ""
    return names[depth] if depth < len(names) else "draw"


# --------------------------------------------------------------------------------------------
# The cut
# --------------------------------------------------------------------------------------------


def qualifier_count(entrants: int, *, one_in: int) -> int:
    """One entrant in ``one_in``, any fraction rounded up, never up to a full bracket.

    >>> [qualifier_count(n, one_in=4) for n in (17, 121, 124, 125)]
    [5, 31, 31, 32]
    """
    return math.ceil(entrants / one_in) if entrants > 0 else 0


# --------------------------------------------------------------------------------------------
# Seating
# --------------------------------------------------------------------------------------------


@dataclass
class Seating(Generic[T]):
    """One round: ``tables[i]`` is table ``i + 1``'s two entrants; ``bye`` sits out (odd)."""

    tables: list[tuple[T, T]] = field(default_factory=list)
    bye: T | None = None


def circle_round(entrants: Sequence[T], index: int) -> Seating[T]:
    """Round ``index`` (from 0) of the circle method: the first entrant stays put and the rest
    turn one place a round, so N entrants (N even) meet each other once in N-1 rounds. An odd
    field plays against an empty seat: whoever meets it has the bye, each once in N rounds."""
    seats: list[T | None] = list(entrants)
    if len(seats) % 2:
        seats.append(None)
    m = len(seats)
    if m < 2:
        return Seating(bye=seats[0] if seats else None)
    k = index % (m - 1)
    rest = seats[1:]
    turned = [seats[0], *rest[len(rest) - k :], *rest[: len(rest) - k]]
    seating: Seating[T] = Seating()
    for i in range(m // 2):
        a, b = turned[i], turned[m - 1 - i]
        if i == 0 and index % 2:  # the fixed seat alternates sides (first deal alternates)
            a, b = b, a
        if a is None:
            seating.bye = b
        elif b is None:
            seating.bye = a
        else:
            seating.tables.append((a, b))
    return seating


def _repeats(seating: Seating[T], met: Mapping[T, Mapping[T, int]]) -> int:
    return sum(met.get(a, {}).get(b, 0) for a, b in seating.tables)


KEPT_APART = 1_000_000  # a "keep apart" pair counts as having met this often: seated last


def with_kept_apart(
    met: Mapping[T, Mapping[T, int]], keep_apart: Iterable[tuple[T, T]]
) -> dict[T, dict[T, int]]:
    """``met`` with each "keep apart" pair (family, the same club) counted as met
    :data:`KEPT_APART` times, so the seating treats them as the worst repeat there is: they
    sit together only when no seating of the field can avoid it.

    >>> with_kept_apart({"A": {"B": 1}}, [("A", "C")])["A"]
    {'B': 1, 'C': 1000000}
    """
    out = {a: dict(row) for a, row in met.items()}
    for a, b in keep_apart:
        out.setdefault(a, {})[b] = out.get(a, {}).get(b, 0) + KEPT_APART
        out.setdefault(b, {})[a] = out.get(b, {}).get(a, 0) + KEPT_APART
    return out


def second_game(seating: Seating[T]) -> Seating[T]:
    """The second game against the same opponent, where an event plays two a pairing: the
    same tables, each table's sides swapped, so who deals first alternates; the bye sits out
    this game too.

    >>> second_game(Seating(tables=[("A", "B")], bye="C"))
    Seating(tables=[('B', 'A')], bye='C')
    """
    return Seating(tables=[(b, a) for a, b in seating.tables], bye=seating.bye)


def seat_round(
    entrants: Sequence[T],
    *,
    index: int,
    met: Mapping[T, Mapping[T, int]] | None = None,
    byes: Mapping[T, int] | None = None,
) -> Seating[T]:
    """Seat round ``index`` of the field ``entrants`` (in registration order), given who has
    met whom (``met[a][b]`` games) and how many byes each has had. The circle method's round
    is used when it repeats no pairing and gives the bye to someone with the fewest byes (a
    field that never changed always gets it, for N-1 rounds); otherwise (late adds and
    withdrawals) a search seats the fewest repeats, the bye going to an entrant with the
    fewest byes (of those, one who has played most)."""
    met = met or {}
    byes = byes or {}
    circle = circle_round(entrants, index)
    fewest = min((byes.get(e, 0) for e in entrants), default=0)
    if _repeats(circle, met) == 0 and (circle.bye is None or byes.get(circle.bye, 0) == fewest):
        return circle
    pool = list(entrants)
    bye: T | None = None
    if len(pool) % 2:
        # Among the fewest byes, whoever has played most sits out (a late add plays), then
        # the last registered.
        order = {e: i for i, e in enumerate(pool)}
        bye = min(
            pool,
            key=lambda e: (byes.get(e, 0), -sum(met.get(e, {}).values()), -order[e]),
        )
        pool.remove(bye)
    tables = _pair(pool, met)
    return Seating(tables=tables, bye=bye)


def _pair(pool: list[T], met: Mapping[T, Mapping[T, int]]) -> list[tuple[T, T]]:
    """Pair ``pool`` with no repeat if a bounded search finds one, else fewest repeats
    (greedy: each entrant in turn takes the opponent it has met least, earliest in order)."""
    budget = [20_000]

    def search(rest: list[T]) -> list[tuple[T, T]] | None:
        if not rest:
            return []
        budget[0] -= 1
        if budget[0] < 0:
            return None
        a, others = rest[0], rest[1:]
        seen = met.get(a, {})
        for i, b in enumerate(others):
            if seen.get(b, 0):
                continue
            tail = search(others[:i] + others[i + 1 :])
            if tail is not None:
                return [(a, b), *tail]
        return None

    found = search(pool)
    if found is not None:
        return found
    tables: list[tuple[T, T]] = []
    rest = list(pool)
    while rest:
        a = rest.pop(0)
        seen = met.get(a, {})
        b = min(rest, key=lambda e: (seen.get(e, 0), rest.index(e)))
        rest.remove(b)
        tables.append((a, b))
    return tables


# --------------------------------------------------------------------------------------------
# After the night: final places, club-season points and the money
# --------------------------------------------------------------------------------------------


def final_places(
    standings: Sequence[tuple[str, int]],
    *,
    in_bracket: Sequence[str],
    lost_in: Mapping[str, int],
    rounds: int,
    bracket_places: Mapping[str, int] | None = None,
) -> dict[str, int]:
    """Each entrant's place at the end of the night. The champion is 1st and the final's loser
    2nd; the losers of one playoff round share a place (the two semi-final losers are both
    3rd, the quarter-final losers all 5th); everyone outside the bracket follows, in standings
    order, sharing a place where the standings share a rank.

    ``standings`` is ``(name, rank)`` in standings order; ``in_bracket`` the seeded entrants;
    ``lost_in`` the playoff round each bracket entrant lost in (absent: the champion);
    ``rounds`` the bracket's number of rounds; ``bracket_places``, where given, the bracket
    entrants' places as a double elimination ranks them (instead of ``lost_in``).

    >>> final_places([("A", 1), ("B", 2), ("C", 3), ("D", 3)], in_bracket=["A", "B"],
    ...              lost_in={"B": 1}, rounds=1)
    {'A': 1, 'B': 2, 'C': 3, 'D': 3}
    """
    places: dict[str, int] = {}
    bracket_set = set(in_bracket)
    for name in in_bracket:
        lost = lost_in.get(name)
        if bracket_places is not None:
            places[name] = bracket_places.get(name, len(in_bracket))
        else:
            places[name] = 1 if lost is None else 2 ** (rounds - lost) + 1
    place = len(bracket_set)
    previous_rank = None
    shared_place = place
    for name, rnk in standings:
        if name in bracket_set:
            continue
        place += 1
        if rnk != previous_rank:
            shared_place = place
            previous_rank = rnk
        places[name] = shared_place
    return places


@dataclass(frozen=True)
class ClubPoints:
    """How a club season scores a night: ``game_points`` (the night's game points, for an
    entrant who reaches ``threshold``, else 0) or ``table`` (points by final place: the first
    number for 1st, the second for 2nd ..., 0 beyond the table).

    >>> ClubPoints().for_night(game_points=12, place=9)
    12
    >>> ClubPoints(threshold=13).for_night(game_points=12, place=9)
    0
    >>> ClubPoints(mode="table", table=(10, 8, 6)).for_night(game_points=12, place=2)
    8
    """

    mode: str = "game_points"
    threshold: int = 12  # ACC Grass Roots: 12 game points on a 9-game night
    table: tuple[int, ...] = (10, 8, 6, 5, 4, 3, 2, 1)

    def for_night(self, *, game_points: int, place: int | None) -> int:
        if self.mode == "table":
            if place is None or place > len(self.table):
                return 0
            return self.table[place - 1]
        return game_points if game_points >= self.threshold else 0


@dataclass
class SeasonRow:
    """A player's line in a club season: points per night (None: not there), the total."""

    key: int
    name: str
    nights: list[int | None]
    rank: int = 0
    tied_with: list[str] = field(default_factory=list)

    @property
    def attended(self) -> int:
        return sum(1 for p in self.nights if p is not None)

    @property
    def total(self) -> int:
        return sum(p for p in self.nights if p is not None)


def season_table(nights: Sequence[Mapping[int, int]], names: Mapping[int, str]) -> list[SeasonRow]:
    """The season standings from each night's points by player (a player in a night's mapping
    attended it): ranked by total, level totals sharing a rank and naming each other, listed
    by name within a tie.

    >>> rows = season_table([{1: 10, 2: 8}, {2: 2, 3: 10}], {1: "Ann", 2: "Bob", 3: "Cy"})
    >>> [(r.rank, r.name, r.total, r.attended) for r in rows]
    [(1, 'Ann', 10, 1), (1, 'Bob', 10, 2), (1, 'Cy', 10, 1)]
    >>> rows[1].tied_with
    ['Ann', 'Cy']
    """
    rows: dict[int, SeasonRow] = {}
    for i, night in enumerate(nights):
        for key, points in night.items():
            row = rows.get(key)
            if row is None:
                row = rows[key] = SeasonRow(key, names[key], [None] * len(nights))
            row.nights[i] = points
    ordered = sorted(rows.values(), key=lambda r: (-r.total, r.name.casefold(), r.key))
    by_total: dict[int, list[str]] = {}
    for row in ordered:
        by_total.setdefault(row.total, []).append(row.name)
    for i, row in enumerate(ordered):
        row.rank = ordered[i - 1].rank if i and ordered[i - 1].total == row.total else i + 1
        row.tied_with = [n for n in by_total[row.total] if n != row.name]
    return ordered


def split_cents(total: int, shares: int) -> list[int]:
    """``total`` cents in ``shares`` parts as equal as cents allow, the odd cents to the first.

    >>> split_cents(1000, 3)
    [334, 333, 333]
    """
    if shares <= 0:
        return []
    base, odd = divmod(total, shares)
    return [base + (1 if i < odd else 0) for i in range(shares)]


def default_payout_weights(entrants: int, *, one_in: int = 4) -> list[int]:
    """The default payout table: about the top quarter of the field paid (as many places as
    the cut), shares falling by one step a place (3 places: 3, 2, 1, so 1/2, 1/3 and 1/6).

    >>> default_payout_weights(12)
    [3, 2, 1]
    """
    return list(range(qualifier_count(entrants, one_in=one_in), 0, -1))


def payout_amounts(fund: int, *, mode: str, table: Sequence[int], entrants: int = 0) -> list[int]:
    """Cents for each paid place. ``percent``: each place's percent of the prize fund; an
    empty table is the default (:func:`default_payout_weights` of ``entrants``). Shares are
    rounded down to the cent and the cents left over go to the top places, one each, so when
    the percents make 100 the places share the whole fund. ``amount``: the table's cents.

    >>> payout_amounts(1000, mode="percent", table=[50, 33, 17])
    [500, 330, 170]
    >>> payout_amounts(1001, mode="percent", table=[], entrants=12)
    [501, 334, 166]
    >>> payout_amounts(1000, mode="amount", table=[700, 300])
    [700, 300]
    """
    if mode == "amount":
        return list(table)
    weights = list(table) if table else default_payout_weights(entrants)
    whole = 100 if table else sum(weights)
    if not weights or whole <= 0:
        return []
    amounts = [fund * w // whole for w in weights]
    if sum(weights) == whole:
        for i in range(fund - sum(amounts)):
            amounts[i % len(amounts)] += 1
    return amounts


def payouts_by_entrant(places: Mapping[str, int], amounts: Sequence[int]) -> dict[str, int]:
    """What each placed entrant is paid: entrants sharing a place share the amounts of the
    places they cover (two 3rds split 3rd and 4th), the odd cents to the first listed.
    Entrants beyond the paid places are left out.

    >>> payouts_by_entrant({"A": 1, "B": 2, "C": 3, "D": 3}, [500, 300, 150, 50])
    {'A': 500, 'B': 300, 'C': 100, 'D': 100}
    """
    groups: dict[int, list[str]] = {}
    for name, place in places.items():
        groups.setdefault(place, []).append(name)
    out: dict[str, int] = {}
    for place in sorted(groups):
        names = groups[place]
        pool = sum(amounts[place - 1 : place - 1 + len(names)])
        if pool <= 0:
            continue
        for name, share in zip(names, split_cents(pool, len(names)), strict=True):
            out[name] = share
    return out
