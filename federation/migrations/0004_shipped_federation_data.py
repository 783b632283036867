"""The shipped federation data: the Grass Roots points schedule, the lifetime titles, the 29-hand
bonus, the Q pools' payout styles and the Tournament of Champions' invitation rule, each with
its source (to be checked against the ACC's own charts and edited in the admin); and the
members' season totals of the results approved so far."""

import datetime as dt

from django.db import migrations

CHECK = " To be checked against the ACC's own chart and corrected in the admin."
SHIPPED = dt.date(2016, 8, 1)


def load(apps, schema_editor):
    GrassRootsSchedule = apps.get_model("federation", "GrassRootsSchedule")
    Title = apps.get_model("federation", "Title")
    HandBonus = apps.get_model("federation", "HandBonus")
    PayoutStyle = apps.get_model("federation", "PayoutStyle")
    InvitationRule = apps.get_model("federation", "InvitationRule")
    GrassRootsSchedule.objects.get_or_create(
        effective_from=SHIPPED,
        defaults={
            "source": "A Grass Roots night scores from 12 game points (the ACC's threshold, as "
            "clubs report it); points equal to the night's game points from there, as Pegboard's "
            "club tables count them." + CHECK,
            "threshold": 12,
            "at_threshold": 12,
            "per_game_point": 1,
        },
    )
    for name, name_fr, points in (
        ("Master", "Maître", 2000),
        ("Grand Master", "Grand maître", 4000),
        ("Life Master", "Maître à vie", 6000),
    ):
        Title.objects.get_or_create(
            points=points,
            defaults={
                "name": name,
                "name_fr": name_fr,
                "source": "The ACC's lifetime titles by Master Rating Points." + CHECK,
            },
        )
    HandBonus.objects.get_or_create(
        hand="29",
        effective_from=SHIPPED,
        defaults={
            "points": 10,
            "source": "A bonus per 29 hand in sanctioned play: the ACC awards one; 10 points is "
            "a placeholder, not the ACC's figure." + CHECK,
        },
    )
    source = "The ACC's Q pool payouts: equal, equal with the top qualifier double, graduated."
    for code, name, name_fr, base, step, lead in (
        ("equal", "Equal shares", "Parts égales", 1, 0, 1),
        ("top-double", "Equal, top qualifier double", "Égales, le premier double", 1, 0, 2),
        ("graduated", "Graduated", "Dégressives", 1, 1, 1),
    ):
        PayoutStyle.objects.get_or_create(
            code=code,
            defaults={
                "name": name,
                "name_fr": name_fr,
                "base_weight": base,
                "step": step,
                "lead_multiplier": lead,
                "source": source + CHECK,
            },
        )
    InvitationRule.objects.get_or_create(
        effective_from=SHIPPED,
        defaults={
            "top_gr": 50,
            "club_champions": True,
            "source": "The Tournament of Champions invites the top Grass Roots members and "
            "every club champion; 50 is a placeholder for the ACC's count." + CHECK,
        },
    )


def totals(apps, schema_editor):
    """The members' season totals of the results approved before they were kept."""
    from federation.totals import retotal

    PointsRow = apps.get_model("federation", "PointsRow")
    MemberSeason = apps.get_model("federation", "MemberSeason")
    for season in PointsRow.objects.values_list("season", flat=True).distinct():
        retotal(season, rows_model=PointsRow, totals_model=MemberSeason)


class Migration(migrations.Migration):
    dependencies = [("federation", "0003_grass_roots_titles_pools")]

    operations = [
        migrations.RunPython(load, migrations.RunPython.noop),
        migrations.RunPython(totals, migrations.RunPython.noop),
    ]
