"""A season keeps its playoff bracket's first-round layout (seed numbers in slot order).

The bracket used to be laid out again from the league's own seed order on every read; the
league now draws in the one order both competitions share (``contest.brackets.slot_order``).
A bracket drawn before keeps the order it was drawn with: this migration stores it for every
season whose playoffs are drawn, computed here as it was then (a migration is a frozen record,
so the old order is written out, not imported).
"""

from django.db import migrations, models


def _old_layout(teams):
    """The league's seed order before contest/, for a bracket of the next power of two at or
    above ``teams``: 1 meets the last seed, each pair in seed order ([1, 8, 4, 5, 2, 7, 3, 6]
    for five to eight teams)."""
    order = [1]
    while len(order) < teams:
        n = len(order) * 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def store_drawn_layouts(apps, schema_editor):
    Season = apps.get_model("league", "Season")
    for season in Season.objects.filter(playoff_seeding__isnull=False).only("playoff_seeding"):
        season.playoff_slots = _old_layout(len(season.playoff_seeding or []))
        season.save(update_fields=["playoff_slots"])


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0012_match_tally"),
    ]

    operations = [
        migrations.AddField(
            model_name="season",
            name="playoff_slots",
            field=models.JSONField(
                blank=True,
                editable=False,
                help_text="First-round seed numbers in slot order, fixed when the playoffs were drawn.",
                null=True,
                verbose_name="playoff slots",
            ),
        ),
        migrations.RunPython(store_drawn_layouts, migrations.RunPython.noop),
    ]
