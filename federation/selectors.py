"""Reads: an event's results package, the schedule in force on a day, the national and regional
tables and a member's career, each summed from the stored points rows (query counts pinned)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext as _

import tournaments.selectors as tournament_selectors
from contest.grp import TitleProgress, TitleStep, pool_shares, title_progress
from federation import roles
from federation.models import (
    FeeRate,
    GrassRootsSchedule,
    HandBonus,
    InvitationRule,
    MemberSeason,
    PointsRow,
    PointsSchedule,
    QPool,
    Region,
    Scope,
    Submission,
    SubmissionStatus,
    Title,
)
from tournaments.models import ClubMember, PlayoffMatch, Tournament


def event_day(tournament: Tournament) -> date:
    """The day an event counts on: its date, else the day it was created."""
    return tournament.date or tournament.created_at.date()


def results_package(tournament: Tournament) -> dict[str, Any]:
    """Everything the federation keeps of an event's results, one row per player in final
    standings order: the event, then each player's place, ACC number, game points, record,
    whether they qualified, their playoff match wins (byes not counted) and the 28 and 29 hands
    they held on the cards entered deal by deal (a pair's on its first player's row)."""
    data = tournament_selectors.standings_for_tournament(tournament)
    entrants = {
        e.name: [r.player for r in e.roster.all()]
        for e in tournament.entrants.prefetch_related("roster__player")
    }
    player_ids = [p.pk for players in entrants.values() for p in players]
    numbers: dict[int, str] = {}
    for player_id, number, club_id in (
        ClubMember.objects.filter(player_id__in=player_ids)
        .exclude(acc_number="")
        .values_list("player_id", "acc_number", "club_id")
    ):
        if player_id not in numbers or club_id == tournament.club_id:  # the event's club first
            numbers[player_id] = number
    wins = Counter(
        PlayoffMatch.objects.filter(
            tournament=tournament, winner__isnull=False, top__isnull=False, bottom__isnull=False
        ).values_list("winner__name", flat=True)
    )
    qualifiers = set(data["qualifiers"])
    hands: dict[str, Counter[str]] = {}
    for hand in tournament_selectors.special_hands_of(tournament):
        hands.setdefault(hand["entrant"].name, Counter()).update(hand["kinds"])
    rows = []
    for row in data["standings"]:
        name = row["entrant"]
        for i, player in enumerate(entrants.get(name, [])):
            held = hands.get(name, Counter()) if i == 0 else Counter()  # a pair's: its first
            rows.append(
                {
                    "entrant": name,
                    "player": player.pk,
                    "name": player.name,
                    "acc_number": numbers.get(player.pk, ""),
                    "rank": row["rank"],
                    "game_points": row["game_points"],
                    "won": row["won"],
                    "lost": row["lost"],
                    "spread": row["spread"],
                    "qualified": name in qualifiers,
                    "playoff_wins": wins.get(name, 0),
                    "hands_28": held["28"],
                    "hands_29": held["29"],
                }
            )
    return {
        "event": tournament.name,
        "date": event_day(tournament).isoformat(),
        "kind": tournament.kind,
        "games": tournament.games_per_entrant,
        "club": tournament.club.name if tournament.club else "",
        "entrants": len(data["standings"]),
        "qualifiers": len(qualifiers),
        "rows": rows,
    }


def schedule_on(day: date) -> PointsSchedule | None:
    """The stored schedule in force on ``day`` (the latest dated on or before it), with its
    minimums read (two queries)."""
    return (
        PointsSchedule.objects.filter(effective_from__lte=day)
        .prefetch_related("minimums")
        .order_by("-effective_from")
        .first()
    )


def submission_of(tournament: Tournament) -> Submission | None:
    return Submission.objects.filter(tournament=tournament).first()


def review_queue(user: Any) -> QuerySet[Submission]:
    """Results waiting for a review, oldest first: all of them for a statistician, those of
    their region's clubs for a regional commissioner."""
    waiting = (
        Submission.objects.filter(status=SubmissionStatus.SENT)
        .select_related("tournament__club", "sent_by")
        .order_by("sent_at")
    )
    if roles.is_statistician(user):
        return waiting
    return waiting.filter(tournament__club__federation_region__region_id__in=roles.region_ids(user))


@dataclass(frozen=True)
class TableRow:
    rank: int
    acc_number: str
    name: str
    points: int
    events: int


def _table(totals: QuerySet[MemberSeason], field: str = "points") -> list[TableRow]:
    # Read from the members' season totals, kept as results count: one row per member, in
    # order from the index (bench/federation.py).
    count = "events" if field == "points" else "nights"
    ordered = (
        totals.filter(**{f"{field}__gt": 0})
        .order_by(f"-{field}", "name", "acc_number")
        .values_list("acc_number", "name", field, count)
    )
    out: list[TableRow] = []
    previous: tuple[int, int] | None = None
    for i, (acc_number, name, total, events) in enumerate(ordered, start=1):
        rank = previous[1] if previous and previous[0] == total else i  # ties share a rank
        previous = (total, rank)
        out.append(TableRow(rank, acc_number, name, total, events))
    return out


def _national(season: int) -> QuerySet[MemberSeason]:
    return MemberSeason.objects.filter(season=season, scope=Scope.NATIONAL, region=None)


def _regional(region: Region, season: int) -> QuerySet[MemberSeason]:
    return MemberSeason.objects.filter(season=season, scope=Scope.REGION, region=region)


def national_table(season: int) -> list[TableRow]:
    """The season's points of every member with an ACC number who earned some, most first,
    with the events they earned them at (one query)."""
    return _table(_national(season))


def regional_table(region: Region, season: int) -> list[TableRow]:
    """The same, counting only the events of the region's clubs (one query)."""
    return _table(_regional(region, season))


def national_gr_table(season: int) -> list[TableRow]:
    """The season's Grass Roots points of every member who earned some at a club night, most
    first, with the nights they earned them at (one query)."""
    return _table(_national(season), "gr_points")


def regional_gr_table(region: Region, season: int) -> list[TableRow]:
    """The same, counting only the nights of the region's clubs (one query)."""
    return _table(_regional(region, season), "gr_points")


def seasons() -> list[int]:
    """The seasons with points of either kind, latest first (one query)."""
    rows = MemberSeason.objects.filter(scope=Scope.NATIONAL).values_list("season", flat=True)
    return list(rows.distinct().order_by("-season"))


def national_champions(season: int) -> list[TableRow]:
    """The season's National Champion: the most Master Rating Points from 1 August to 31 July
    (all of them, if tied; two queries)."""
    national = _national(season).filter(points__gt=0)
    top = national.order_by("-points").values_list("points", flat=True).first()
    if top is None:
        return []
    return _table(national.filter(points=top))


@dataclass(frozen=True)
class TablePage:
    rows: list[TableRow]
    number: int
    pages: int
    first: int  # the place of the page's first row
    total: int


def table_page(
    season: int, region: Region | None, field: str, *, number: int, per_page: int
) -> TablePage:
    """One page of a table (``field``: "points" or "gr_points"), its ranks as in the whole
    table: the members tied at the page's first total share the rank of the first of them
    (two queries on the first page, three after, whatever the table's length)."""
    totals = (_regional(region, season) if region else _national(season)).filter(
        **{f"{field}__gt": 0}
    )
    total = totals.count()
    pages = max(1, -(-total // per_page))
    number = min(max(number, 1), pages)
    first = (number - 1) * per_page
    count = "events" if field == "points" else "nights"
    chunk = list(
        totals.order_by(f"-{field}", "name", "acc_number").values_list(
            "acc_number", "name", field, count
        )[first : first + per_page]
    )
    rows: list[TableRow] = []
    if chunk:
        above = totals.filter(**{f"{field}__gt": chunk[0][2]}).count() if first else 0
        for i, (acc_number, name, points, events) in enumerate(chunk):
            if i == 0:
                rank = above + 1
            elif points != rows[-1].points:
                rank = first + i + 1
            rows.append(TableRow(rank, acc_number, name, points, events))
    return TablePage(rows, number, pages, first + 1, total)


def champion_seasons(career: Career) -> list[int]:
    """The seasons ``career``'s member was National Champion (alone or tied): their season's
    points equal the season's most (one query a season they earned points in)."""
    out = []
    for season, points in career.by_season:
        if points <= 0:
            continue
        top = _national(season).order_by("-points").values_list("points", flat=True).first()
        if top == points:
            out.append(season)
    return out


@dataclass(frozen=True)
class ClubChampion:
    club: str
    acc_number: str
    name: str
    points: int


def club_champions(season: int) -> list[ClubChampion]:
    """Each club's champion of a season: the most Grass Roots points at its nights (all of
    them, if tied), clubs by name (one query)."""
    at_club = MemberSeason.objects.filter(season=season, scope=Scope.CLUB)
    best = at_club.filter(club=OuterRef("club")).order_by("-gr_points").values("gr_points")[:1]
    champions = (
        at_club.filter(gr_points__gt=0, gr_points=Subquery(best))
        .order_by("club__name", "name", "acc_number")
        .values_list("club__name", "acc_number", "name", "gr_points")
    )
    return [ClubChampion(*row) for row in champions]


@dataclass(frozen=True)
class Invitation:
    acc_number: str
    name: str
    reasons: list[str]  # "gr" (a top Grass Roots place), "club" (a club champion)
    gr_rank: int | None
    clubs: list[str]


def invitation_rule_on(day: date) -> InvitationRule | None:
    return (
        InvitationRule.objects.filter(effective_from__lte=day).order_by("-effective_from").first()
    )


def invitations(season: int, rule: InvitationRule | None) -> list[Invitation]:
    """The Tournament of Champions' list of a season by its rule: the members placed in the top
    ``top_gr`` of the national Grass Roots table (ties at the last place all in) and every club
    champion, each once, Grass Roots place first, then by name (four queries)."""
    if rule is None:
        return []
    found: dict[str, Invitation] = {}
    national = _national(season).filter(gr_points__gt=0)
    last = (
        national.order_by("-gr_points").values_list("gr_points", flat=True)[
            rule.top_gr - 1 : rule.top_gr
        ]
        if rule.top_gr
        else []
    )
    cut = next(iter(last), None)
    if rule.top_gr and cut is None:  # fewer members than places: all of them
        cut = 1
    if cut is not None:
        for row in _table(national.filter(gr_points__gte=cut), "gr_points"):
            found[row.acc_number] = Invitation(row.acc_number, row.name, ["gr"], row.rank, [])
    if rule.club_champions:
        for champ in club_champions(season):
            invite = found.setdefault(
                champ.acc_number, Invitation(champ.acc_number, champ.name, [], None, [])
            )
            if "club" not in invite.reasons:
                invite.reasons.append("club")
            invite.clubs.append(champ.club)
    return sorted(
        found.values(), key=lambda i: (i.gr_rank is None, i.gr_rank or 0, i.name, i.acc_number)
    )


def grass_roots_on(day: date) -> GrassRootsSchedule | None:
    """The Grass Roots schedule in force on ``day``."""
    return (
        GrassRootsSchedule.objects.filter(effective_from__lte=day)
        .order_by("-effective_from")
        .first()
    )


def hand_bonus_on(day: date) -> dict[str, int]:
    """The points per special hand in force on ``day``, by hand ("29": 10)."""
    out: dict[str, int] = {}
    for bonus in HandBonus.objects.filter(effective_from__lte=day).order_by("effective_from"):
        out[bonus.hand] = bonus.points  # the latest row of each hand wins
    return out


def fee_rate_on(kind: str, day: date) -> FeeRate | None:
    """The sanctioning fee rate of an event kind in force on ``day``."""
    return (
        FeeRate.objects.filter(kind=kind, effective_from__lte=day)
        .order_by("-effective_from")
        .first()
    )


@dataclass(frozen=True)
class PoolLine:
    pool: QPool
    collected: int
    paid: list[tuple[str, int]]  # (entrant, cents), in standings order


@dataclass(frozen=True)
class EventBooks:
    """What an event owes the federation and its Q pools."""

    entrants: int
    rate: FeeRate | None
    fee: int
    pools: list[PoolLine]


def event_books(tournament: Tournament, package: dict[str, Any] | None = None) -> EventBooks:
    """The sanctioning fee (the rate of the event's kind on its day x its entrants) and each
    Q pool: what came in and each qualifier's share, from the results (``package``: as sent)."""
    package = package or results_package(tournament)
    day = date.fromisoformat(package["date"])
    rate = fee_rate_on(package["kind"], day)
    entrants = package["entrants"]
    qualified: list[str] = []
    for row in package["rows"]:
        if row["qualified"] and row["entrant"] not in qualified:
            qualified.append(row["entrant"])
    pools = []
    for pool in tournament.q_pools.select_related("style").order_by("number"):
        inside = set(pool.entrants)
        winners = [name for name in qualified if name in inside]
        collected = pool.entry * len(pool.entrants)
        shares = pool_shares(collected, len(winners), pool.style.as_style())
        pools.append(PoolLine(pool, collected, list(zip(winners, shares, strict=True))))
    fee = rate.per_entrant * entrants if rate else 0
    return EventBooks(entrants, rate, fee, pools)


def titles() -> list[Title]:
    return list(Title.objects.order_by("points"))


def progress_of(points: int, stored: list[Title]) -> TitleProgress:
    return title_progress(points, [TitleStep(t.name, t.points) for t in stored])


@dataclass(frozen=True)
class Career:
    acc_number: str
    name: str
    rows: list[PointsRow]
    points: int
    events: int
    clubs: list[str]
    by_season: list[tuple[int, int]]
    gr_points: int
    gr_by_season: list[tuple[int, int]]
    hands_28: int
    hands_29: int


def career(acc_number: str) -> Career | None:
    """A member's events across clubs, latest first, with totals (one query)."""
    rows = list(
        PointsRow.objects.filter(acc_number=acc_number)
        .select_related("tournament__club", "region")
        .order_by("-date", "tournament_id")
    )
    if not rows:
        return None
    seasons_: Counter[int] = Counter()
    gr_seasons: Counter[int] = Counter()
    for r in rows:
        seasons_[r.season] += r.points
        if r.gr_points:
            gr_seasons[r.season] += r.gr_points
    clubs = sorted({r.tournament.club.name for r in rows if r.tournament.club})
    return Career(
        acc_number=acc_number,
        name=rows[0].name,
        rows=rows,
        points=sum(r.points for r in rows),
        events=len({r.tournament_id for r in rows}),
        clubs=clubs,
        by_season=sorted(seasons_.items(), reverse=True),
        gr_points=sum(r.gr_points for r in rows),
        gr_by_season=sorted(gr_seasons.items(), reverse=True),
        hands_28=sum(r.hands_28 for r in rows),
        hands_29=sum(r.hands_29 for r in rows),
    )


def regions() -> QuerySet[Region]:
    return Region.objects.annotate(club_count=Count("clubs", filter=Q(clubs__isnull=False)))


@dataclass(frozen=True)
class PortalSheet:
    """The results laid out as the ACC's portal asks for them: the event's fields in order,
    then one line per player with the columns in order, then the money."""

    event: list[tuple[str, Any]]
    columns: list[str]
    lines: list[list[Any]]
    books: EventBooks | None


def portal_sheet(submission: Submission) -> PortalSheet:
    """Every field the ACC's portal asks for, in its order, from the results as sent (so the
    page shows what the statistician reviewed), with the stored points once approved."""
    package = submission.package
    tournament = submission.tournament
    region = tournament.club.federation_region if tournament.club_id else None  # type: ignore[union-attr]
    sanctioned = package["kind"] in ("main", "consolation")
    books = event_books(tournament, package) if sanctioned else None
    stored = {(r.acc_number, r.name): r for r in PointsRow.objects.filter(submission=submission)}
    event: list[tuple[str, Any]] = [
        (_("ACC club number"), getattr(region, "number", "") or ""),
        (_("Club"), package["club"]),
        (_("Region"), region.region.name if region else ""),
        (_("Date"), package["date"]),
        (_("Event"), package["event"]),
        (_("Event kind"), tournament.get_kind_display()),
        (_("Qualifying games"), package["games"]),
        (_("Entrants"), package["entrants"]),
        (_("Qualifiers"), package["qualifiers"]),
    ]
    if books is not None:
        event.append((_("Sanctioning fee (cents)"), books.fee))
    columns = [
        _("Place"),
        _("ACC number"),
        _("Player"),
        _("Won"),
        _("Lost"),
        _("Game points"),
        _("Spread"),
        _("Qualified"),
        _("Playoff wins"),
        _("28 hands"),
        _("29 hands"),
        _("Points") if sanctioned else _("Grass Roots points"),
    ]
    lines = []
    for row in package["rows"]:
        kept = stored.get((row["acc_number"], row["name"]))
        earned = "" if kept is None else (kept.points if sanctioned else kept.gr_points)
        lines.append(
            [
                row["rank"],
                row["acc_number"],
                row["name"],
                row["won"],
                row["lost"],
                row["game_points"],
                row["spread"],
                _("yes") if row["qualified"] else _("no"),
                row["playoff_wins"],
                row.get("hands_28", 0),
                row.get("hands_29", 0),
                earned,
            ]
        )
    return PortalSheet(event, columns, lines, books)
