"""ACC reporting: a night's results and a club season's, as the director enters them online
(ACC number, name, game points, games won, spread, skunks, rank, playoff finish, payout), and
a guest's nights at the club; the special hands a night's cards hold. Reads only (a selector
module): the pages and the CSV files in ``tournaments/views/reports.py`` render them."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, Sum
from django.utils.translation import gettext_lazy as _

from contest.special_hands import special_hands
from league.shared import Player
from tournaments import selectors
from tournaments.models import (
    Club,
    ClubMember,
    ClubSeason,
    Entrant,
    LedgerEntry,
    LedgerKind,
    MemberStatus,
    Scorecard,
    TableState,
    Tournament,
    TournamentStage,
)

# The columns of a night's export, in order (pinned by tests/tournaments/test_acc_reports.py).
NIGHT_COLUMNS = (
    "acc_number",
    "name",
    "game_points",
    "games_won",
    "spread",
    "skunks",
    "rank",
    "playoff_finish",
    "payout",
)
# A club season's: the night's columns summed over the nights counted, and the season's own.
SEASON_COLUMNS = (
    "season_rank",
    "acc_number",
    "name",
    "nights",
    "club_points",
    "game_points",
    "games_won",
    "spread",
    "skunks",
    "best_playoff_finish",
    "payout",
)


@dataclass
class Membership:
    acc_number: str = ""
    status: str = MemberStatus.MEMBER
    nights: int = 0  # the club's nights entered so far
    over_limit: bool = False  # a guest past the club's nights
    known: bool = False  # a ClubMember row exists


def _at_club(club: Club) -> Q:
    """An entrant of one of ``club``'s nights: made by the club ("Tonight") or counted toward
    one of its seasons."""
    return Q(tournament__club=club) | Q(tournament__club_season__club=club)


def memberships(club: Club | None, player_ids: set[int]) -> dict[int, Membership]:
    """Each player's ACC number and standing at ``club``, with the club's nights they entered
    (two queries); a guest past ``club.guest_nights`` is flagged."""
    out = {pk: Membership() for pk in player_ids}
    if club is None or not player_ids:
        return out
    for pk, number, status in ClubMember.objects.filter(
        club=club, player_id__in=player_ids
    ).values_list("player_id", "acc_number", "status"):
        out[pk] = Membership(acc_number=number, status=status, known=True)
    counts = (
        Entrant.objects.filter(_at_club(club), players__in=player_ids)
        .values_list("players", "tournament")
        .distinct()
    )
    nights: dict[int, int] = defaultdict(int)
    for pk, _tournament in counts:
        nights[pk] += 1
    for pk, row in out.items():
        row.nights = nights.get(pk, 0)
        row.over_limit = row.status == MemberStatus.GUEST and row.nights > club.guest_nights
    return out


def _payouts(tournament_ids: list[int]) -> dict[tuple[int, str], int]:
    """(tournament id, entrant name) -> cents paid out to it (payouts, not side pots)."""
    rows = (
        LedgerEntry.objects.filter(
            tournament_id__in=tournament_ids, kind=LedgerKind.PAYOUT, entrant__isnull=False
        )
        .values_list("tournament_id", "entrant__name")
        .annotate(total=Sum("amount"))
    )
    return {(tid, name): int(total) for tid, name, total in rows}


def _club_of(tournament: Tournament) -> Club | None:
    """The club whose night it is: the one that made it, else its season's."""
    if tournament.club is not None:
        return tournament.club
    season = tournament.club_season
    return season.club if season is not None else None


@dataclass
class RosterRow:
    """One line of a club's roster at ``/direct/``: a player, their membership as stored (a
    default member with no number when none is), the club's nights they entered."""

    player: Player
    membership: Membership


def club_roster(club: Club) -> list[RosterRow]:
    """The club's members and everyone who has entered one of its nights, by name, each with
    their ACC number, standing and nights (a guest past the club's limit flagged): what the
    director fills in for the ACC report (four queries)."""
    ids = set(club.members.values_list("pk", flat=True))
    ids |= set(
        Entrant.objects.filter(_at_club(club), players__isnull=False).values_list(
            "players", flat=True
        )
    )
    members = memberships(club, ids)
    players = Player.objects.filter(pk__in=ids).order_by("name", "pk")
    return [RosterRow(p, members[p.pk]) for p in players]


def night_report(tournament: Tournament) -> dict[str, Any]:
    """A night's export: a row per player (a partnership's two players each have one), in
    standings order, with ``NIGHT_COLUMNS``; ``flags`` names guests past the club's nights."""
    tournament = Tournament.objects.select_related("club", "club_season__club").get(
        pk=tournament.pk
    )
    (night,) = selectors.nights_of([tournament])
    ids = {pk for pks in night.players.values() for pk in pks}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    club = _club_of(tournament)
    members = memberships(club, ids)
    paid = _payouts([tournament.pk])
    rows = []
    for standing in night.standings["ranked"]:
        rec = standing.record
        finish = night.places.get(rec.entrant) if night.places else None
        in_bracket = rec.entrant in night.seeded
        for pk in night.players.get(rec.entrant, []):
            m = members[pk]
            rows.append(
                {
                    "acc_number": m.acc_number,
                    "name": names.get(pk, rec.entrant),
                    "game_points": rec.game_points,
                    "games_won": rec.won,
                    "spread": rec.spread,
                    "skunks": rec.skunks,
                    "rank": standing.rank,
                    "playoff_finish": finish if in_bracket else None,
                    "payout": paid.get((tournament.pk, rec.entrant), 0),
                    "status": m.status,
                    "nights": m.nights,
                    "over_limit": m.over_limit,
                }
            )
    return {
        "tournament": tournament,
        "club": club,
        "rows": rows,
        "columns": NIGHT_COLUMNS,
        "final": night.places is not None,
    }


@dataclass
class _Season:
    pk: int
    name: str
    nights: int = 0
    game_points: int = 0
    games_won: int = 0
    spread: int = 0
    skunks: int = 0
    finishes: list[int] = field(default_factory=list)
    payout: int = 0


def season_report(season: ClubSeason) -> dict[str, Any]:
    """A club season's export and its "Player of the year" table: a row per player, in the
    season's order (club points, ties sharing a rank), with ``SEASON_COLUMNS``."""
    table = selectors.club_season_standings(season)
    counted: list[Tournament] = table["nights"]
    nights = selectors.nights_of(counted)
    paid = _payouts([t.pk for t in counted])
    totals: dict[int, _Season] = {}
    for night in nights:
        for name, rec in night.records.items():
            finish = night.places.get(name) if night.places and name in night.seeded else None
            for pk in night.players.get(name, []):
                row = totals.setdefault(pk, _Season(pk, ""))
                row.nights += 1
                row.game_points += rec.game_points
                row.games_won += rec.won
                row.spread += rec.spread
                row.skunks += rec.skunks
                row.payout += paid.get((night.tournament.pk, name), 0)
                if finish is not None:
                    row.finishes.append(finish)
    members = memberships(season.club, set(totals))
    rows = []
    for line in table["rows"]:
        t = totals.get(line.key, _Season(line.key, line.name))
        m = members.get(line.key, Membership())
        rows.append(
            {
                "season_rank": line.rank,
                "acc_number": m.acc_number,
                "name": line.name,
                "nights": t.nights,
                "club_points": line.total,
                "game_points": t.game_points,
                "games_won": t.games_won,
                "spread": t.spread,
                "skunks": t.skunks,
                "best_playoff_finish": min(t.finishes) if t.finishes else None,
                "payout": t.payout,
                "status": m.status,
                "over_limit": m.over_limit,
            }
        )
    return {
        "season": season,
        "rows": rows,
        "columns": SEASON_COLUMNS,
        "nights": counted,
        "pending": [t for t in table["pending"] if t.stage != TournamentStage.FINISHED],
    }


SPECIAL_KIND_WORDS = {
    "24": _("a 24 hand"),
    "28": _("a 28 hand"),
    "29": _("a 29 hand"),
    "four_of_a_kind": _("four of a kind"),
}


def special_hands_of(tournament: Tournament) -> list[dict[str, Any]]:
    """The night's special hands (24, 28, 29, four of a kind) from the qualifying games whose
    cards were entered deal by deal (one card per table read: both sides enter the same
    deals), in round and table order: who held it, where, and what it was."""
    cards = (
        Scorecard.objects.filter(
            game__round__tournament=tournament,
            game__status=TableState.VERIFIED,
            by_checker=False,
            deals__isnull=False,
        )
        .select_related("game__round", "game__first", "game__second")
        .order_by("game__round__number", "game__table", "at", "pk")
    )
    seen: set[int] = set()
    out: list[dict[str, Any]] = []
    for card in cards:
        game = card.game
        if game.pk in seen:
            continue
        seen.add(game.pk)
        deals = (card.deals or {}).get("deals") or []
        for hand in special_hands(deals):
            entrant = game.first if hand.seat % 2 == 0 else game.second
            deal = deals[hand.deal - 1]
            out.append(
                {
                    "entrant": entrant,
                    "round": game.round.number,
                    "table": game.table,
                    "deal": hand.deal,
                    "crib": hand.crib,
                    "points": hand.points,
                    "kinds": hand.kinds,
                    "words": [SPECIAL_KIND_WORDS[k] for k in hand.kinds],
                    "cards": tuple(
                        (deal.get("cards") or {})["crib" if hand.crib else str(hand.seat)]
                    ),
                    "starter": deal.get("starter") or "",
                }
            )
    return out
