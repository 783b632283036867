"""The shipped default points schedule (1 Aug 2016), to be checked against the ACC's chart."""

from django.db import migrations


def load(apps, schema_editor):
    from contest.mrp import DEFAULT_SCHEDULE as d

    PointsSchedule = apps.get_model("federation", "PointsSchedule")
    ScheduleMinimum = apps.get_model("federation", "ScheduleMinimum")
    schedule, created = PointsSchedule.objects.get_or_create(
        effective_from=d.effective_from,
        defaults={
            "source": d.source,
            "main_factor": d.main.qualifier_factor,
            "main_flat": d.main.bottom_flat,
            "main_playoff": d.main.playoff_factor,
            "consolation_factor": d.consolation.qualifier_factor,
            "consolation_flat": d.consolation.bottom_flat,
            "consolation_playoff": d.consolation.playoff_factor,
        },
    )
    if created:
        ScheduleMinimum.objects.bulk_create(
            ScheduleMinimum(schedule=schedule, kind=kind, games=games, minimum=minimum)
            for kind, rates in (("main", d.main), ("consolation", d.consolation))
            for games, minimum in rates.minimums
        )


class Migration(migrations.Migration):
    dependencies = [("federation", "0001_initial")]

    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
