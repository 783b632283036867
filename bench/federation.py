"""The federation at its size: 200 clubs with a 36-night season each and 300 sanctioned events,
their approved results stored as points rows; the national table, a regional table and a
member's career read from them, as selectors and as pages; the Grass Roots tables (national
and regional) and the Tournament of Champions list from the club nights' Grass Roots points.
The tables read the members' season totals, rebuilt from the rows first (timed).

    PYTHONPATH=. .venv/bin/python bench/federation.py            # the figures
    PYTHONPATH=. .venv/bin/python bench/federation.py --runs 50  # more passes

Not a test: it measures and prints. It builds an in-memory SQLite database with bulk inserts
(6 regions, 200 clubs of 32 members each: 6,400 ACC numbers; each club night a field of 9 to 25
of its members; each event 40 to 120 members from anywhere, one in four qualifying, their Master
Rating Points by the shipped schedule), then times each read ``--runs`` times (the median, and
the statements of one pass). It exits non-zero when it built fewer rows than it set out to, or
when a read found fewer members than it should: a bench that measured nothing says so.
Target: each read under 100 ms.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from measured import measured  # noqa: E402

CLUBS = 200
NIGHTS = 36
EVENTS = 300
MEMBERS_PER_CLUB = 32
REGIONS = 6
SEASON = 2026
TARGET_MS = 100.0
LAST_DAY = dt.date(SEASON + 1, 7, 31)  # the rule in force on the season's last day


def setup() -> None:
    os.environ["DATABASE_URL"] = "sqlite://:memory:"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("migrate", verbosity=0, interactive=False)


def build(rng: random.Random) -> dict[str, int]:
    """Every row in bulk; returns what it set out to build, to be checked against the tables."""
    from contest.mrp import DEFAULT_SCHEDULE, EventKind, Qualifier, event_points
    from federation.models import ClubRegion, PointsRow, Region, Submission
    from tournaments.models import Club, Kind, Tournament, TournamentStage

    regions = Region.objects.bulk_create(Region(name=f"Region {i}") for i in range(REGIONS))
    clubs = Club.objects.bulk_create(Club(name=f"Club {i:03}") for i in range(CLUBS))
    ClubRegion.objects.bulk_create(
        ClubRegion(club=c, region=regions[i % REGIONS]) for i, c in enumerate(clubs)
    )
    members = {c.pk: [f"{c.pk:03}{m:02}" for m in range(MEMBERS_PER_CLUB)] for c in clubs}
    everyone = [n for numbers in members.values() for n in numbers]
    region_of = {c.pk: regions[i % REGIONS].pk for i, c in enumerate(clubs)}
    start = dt.date(SEASON, 8, 6)
    now = dt.datetime(SEASON + 1, 8, 1, tzinfo=dt.UTC)

    events: list[tuple[Tournament, list[tuple[str, int, int, int, int]], dict]] = []
    for c in clubs:
        for night in range(NIGHTS):
            t = Tournament(
                name=f"{c.name} night {night + 1}",
                date=start + dt.timedelta(weeks=night),
                kind=Kind.CLUB_NIGHT,
                games_per_entrant=9,
                stage=TournamentStage.FINISHED,
                club=c,
            )
            field = rng.sample(members[c.pk], rng.randint(9, 25))
            rows = [(n, rank, rng.randint(0, 18), 0, 0) for rank, n in enumerate(field, 1)]
            events.append((t, rows, {}))
    for e in range(EVENTS):
        c = clubs[e % CLUBS]
        kind = EventKind.MAIN if e % 3 else EventKind.CONSOLATION
        games = rng.choice([12, 15, 18, 22]) if kind == EventKind.MAIN else rng.choice([7, 9, 12])
        t = Tournament(
            name=f"Event {e + 1}",
            date=start + dt.timedelta(days=rng.randrange(350)),
            kind=kind.value,
            games_per_entrant=games,
            stage=TournamentStage.FINISHED,
            club=c,
        )
        field = rng.sample(everyone, rng.randint(40, 120))
        gps = sorted((rng.randint(0, 2 * games) for _ in field), reverse=True)
        cut = (len(field) + 3) // 4
        qualifiers = [Qualifier(n, gp, 0) for n, gp in zip(field[:cut], gps, strict=False)]
        for w in range(min(4, cut.bit_length() - 1)):  # the bracket's winners, round by round
            for q in range(cut >> (w + 1)):
                qualifiers[q] = Qualifier(qualifiers[q].name, qualifiers[q].game_points, w + 1)
        awards = {
            a.name: a
            for a in event_points(DEFAULT_SCHEDULE, kind=kind, games=games, qualifiers=qualifiers)
        }
        rows = []
        wins = {q.name: q.playoff_wins for q in qualifiers}
        package_rows = []
        for rank, (n, gp) in enumerate(zip(field, gps, strict=True), 1):
            a = awards.get(n)
            rows.append((n, rank, gp, a.qualifying if a else 0, a.playoff if a else 0))
            package_rows.append(
                {"entrant": n, "name": f"Member {n}", "acc_number": n, "rank": rank,
                 "game_points": gp, "qualified": n in wins, "playoff_wins": wins.get(n, 0)}
            )  # fmt: skip
        package = {"date": t.date.isoformat(), "kind": kind.value, "games": games}
        events.append((t, rows, {**package, "rows": package_rows}))

    tournaments = Tournament.objects.bulk_create([t for t, _, _ in events], batch_size=2000)
    submissions = Submission.objects.bulk_create(
        [
            Submission(tournament=t, status="approved", package=p, sent_at=now, reviewed_at=now)
            for t, (_, _, p) in zip(tournaments, events, strict=True)
        ],
        batch_size=2000,
    )
    planned_rows = 0
    batch: list[PointsRow] = []
    for (t, rows, _), s in zip(events, submissions, strict=True):
        for n, rank, gp, qualifying, playoff in rows:
            batch.append(
                PointsRow(
                    submission=s,
                    tournament=t,
                    region_id=region_of[t.club_id],
                    acc_number=n,
                    name=f"Member {n}",
                    season=SEASON,
                    date=t.date,
                    kind=t.kind,
                    rank=rank,
                    game_points=gp,
                    qualified=qualifying > 0,
                    playoff_wins=0,
                    qualifying_points=qualifying,
                    playoff_points=playoff,
                    points=qualifying + playoff,
                    # A club night's Grass Roots points by the shipped schedule: from 12 on.
                    gr_points=gp if t.kind == Kind.CLUB_NIGHT and gp >= 12 else 0,
                    club_id=t.club_id,
                )
            )
            planned_rows += 1
        if len(batch) >= 5000:
            PointsRow.objects.bulk_create(batch)
            batch = []
    PointsRow.objects.bulk_create(batch)
    return {
        "tournaments": CLUBS * NIGHTS + EVENTS,
        "submissions": CLUBS * NIGHTS + EVENTS,
        "rows": planned_rows,
        "members": len({row[0] for _t, rows, _p in events for row in rows}),  # who played
    }


def timed(call, runs: int) -> tuple[float, int, object]:
    """The median milliseconds of ``runs`` calls, the statements of one, and its answer."""
    from django.db import connection

    statements = []  # counted as sent: a request's start clears Django's own query log

    def count(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        answer = call()
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        call()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), len(statements), answer


def main() -> int:
    global CLUBS, NIGHTS, EVENTS  # the sizes build() reads
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--clubs", type=int, default=200, help="clubs (200)")
    parser.add_argument("--nights", type=int, default=36, help="nights a club (36)")
    parser.add_argument("--events", type=int, default=300, help="sanctioned events (300)")
    args = parser.parse_args()
    CLUBS, NIGHTS, EVENTS = args.clubs, args.nights, args.events
    setup()
    from django.test import Client

    from federation import selectors
    from federation.models import PointsRow, Region, Submission
    from tournaments.models import Tournament

    began = time.perf_counter()
    planned = build(random.Random(20261207))
    built = {
        "tournaments": Tournament.objects.count(),
        "submissions": Submission.objects.count(),
        "rows": PointsRow.objects.count(),
        "members": PointsRow.objects.values("acc_number").distinct().count(),
    }
    print(f"built in {time.perf_counter() - began:.1f} s: {built}")
    from federation.models import MemberSeason
    from federation.totals import retotal

    began = time.perf_counter()
    totals = retotal(SEASON)  # as a recomputation does: the whole season's totals
    print(
        f"season totals rebuilt in {(time.perf_counter() - began) * 1000:.0f} ms: {totals:,} rows"
    )
    if MemberSeason.objects.count() < built["members"]:
        print("FAILED: fewer season totals than members")
        return 1
    failures = [f"{k}: built {built[k]} of {planned[k]}" for k in planned if built[k] < planned[k]]

    member = PointsRow.objects.filter(points__gt=0).values_list("acc_number", flat=True).first()
    region = Region.objects.order_by("pk").first()
    client = Client()
    full = CLUBS >= 200  # at the federation's size, the tables' lengths are known lower bounds
    reads = {
        "national table (selector)": (lambda: selectors.national_table(SEASON), full and 1000),
        "regional table (selector)": (
            lambda: selectors.regional_table(region, SEASON),
            full and 100,
        ),
        "career (selector)": (lambda: selectors.career(member).rows, 1),
        "national GR table (selector)": (
            lambda: selectors.national_gr_table(SEASON),
            full and 1000,
        ),
        "regional GR table (selector)": (
            lambda: selectors.regional_gr_table(region, SEASON),
            full and 100,
        ),
        "invitations (selector)": (
            lambda: selectors.invitations(SEASON, selectors.invitation_rule_on(LAST_DAY)),
            full and 200,
        ),
        "/federation/grass-roots/ (page)": (
            lambda: client.get(f"/federation/grass-roots/?season={SEASON}"),
            None,
        ),
        "/federation/ (page)": (lambda: client.get(f"/federation/?season={SEASON}"), None),
        "/federation/members/<n>/ (page)": (
            lambda: client.get(f"/federation/members/{member}/"),
            None,
        ),
    }
    print(f"{'read':36} {'median ms':>10} {'statements':>10}  rows")
    for name, (call, at_least) in reads.items():
        ms, statements, answer = timed(call, args.runs)
        if at_least is None:
            size = len(answer.content)  # type: ignore[attr-defined]
            ok = answer.status_code == 200  # type: ignore[attr-defined]
            if not ok:
                failures.append(f"{name}: status {answer.status_code}")  # type: ignore[attr-defined]
            shown = f"{size:,} bytes"
        else:
            count = len(answer)  # type: ignore[arg-type]
            if count < max(at_least, 1):
                failures.append(f"{name}: {count} rows, expected at least {at_least}")
            shown = f"{count:,}"
        met = "met" if ms < TARGET_MS else "MISSED"
        print(f"{name:36} {ms:10.1f} {statements:10d}  {shown}  ({met}: < {TARGET_MS:.0f} ms)")
    # A schedule change dated mid-season: the approved events from its date are recomputed.
    from contest.mrp import DEFAULT_SCHEDULE
    from federation.models import PointsSchedule, ScheduleMinimum
    from federation.services import schedule_record
    from league.kernel.permissions import Trusted

    revised = PointsSchedule(
        effective_from=dt.date(SEASON + 1, 1, 1), source="bench", main_factor=6, main_flat=6
    )
    minimums = [
        ScheduleMinimum(kind=kind, games=games, minimum=minimum)
        for kind, rates in (
            ("main", DEFAULT_SCHEDULE.main),
            ("consolation", DEFAULT_SCHEDULE.consolation),
        )
        for games, minimum in rates.minimums
    ]
    before = PointsRow.objects.filter(date__gte=revised.effective_from, kind="main", points__gt=0)
    total_before = sum(before.values_list("points", flat=True))
    began = time.perf_counter()
    schedule_record(user=Trusted(None, "bench"), schedule=revised, minimums=minimums)
    ms = (time.perf_counter() - began) * 1000
    total_after = sum(before.values_list("points", flat=True))
    if total_after <= total_before:
        failures.append("the schedule change recomputed nothing")
    recounted = Submission.objects.filter(
        tournament__kind__in=["main", "consolation"], tournament__date__gte=revised.effective_from
    ).count()
    print(
        f"schedule change from {revised.effective_from}: {ms:.0f} ms, {recounted} events recomputed"
    )
    print(f"load: {os.getloadavg()[0]:.1f}")
    for failure in failures:
        print("FAILED:", failure)
    if failures:
        return 1
    measured("points rows", built["rows"], planned["rows"])
    measured("reads", len(reads), 9)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
