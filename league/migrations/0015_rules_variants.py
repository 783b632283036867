"""The "game to" help text says the standard games may be played to 61 (once around the board).

No data changes: a season keeps its target and skunk margins; only new leagues read the new
defaults (``contest.points.skunk_defaults``).
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0014_season_life"),
    ]

    operations = [
        migrations.AlterField(
            model_name="league",
            name="target",
            field=models.PositiveSmallIntegerField(
                default=121,
                help_text="121 for the usual games (or 61, once around the board), 61 for five-card, 181 for seven-card.",
                verbose_name="game to",
            ),
        ),
        migrations.AlterField(
            model_name="season",
            name="target",
            field=models.PositiveSmallIntegerField(
                default=121,
                help_text="121 for the usual games (or 61, once around the board), 61 for five-card, 181 for seven-card.",
                verbose_name="game to",
            ),
        ),
    ]
