"""Seasons have a life (draft, published, running, finished) instead of a "current" checkbox,
and players answer in, out or maybe for each night.

The data step maps each existing season from its checkbox and its dates (a migration is a
frozen record, so the rule is written out here): the current season is published (so it runs:
its first night has come, or its nights have no date); another season is finished once its last
night has passed or a game of it was played, else it is published (a next season someone had
prepared, now shown as such). Going back, a published season whose first night has come is the
current one.
"""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Max, Min, Q
from django.utils import timezone


def seasons_get_a_life(apps, schema_editor):
    Season = apps.get_model("league", "Season")
    Game = apps.get_model("league", "Game")
    today = timezone.localdate()
    regular = Q(weeks__is_playoff=False)
    rows = Season.objects.annotate(
        first=Min("weeks__date", filter=regular), last=Max("weeks__date", filter=regular)
    )
    for season in rows:
        if season.is_current:
            state = "published"
        else:
            played = Game.objects.filter(match__week__season=season).exists()
            over = season.last is not None and season.last < today
            state = "finished" if played or over else "published"
        Season.objects.filter(pk=season.pk).update(state=state)


def seasons_back_to_current(apps, schema_editor):
    Season = apps.get_model("league", "Season")
    today = timezone.localdate()
    rows = Season.objects.annotate(first=Min("weeks__date", filter=Q(weeks__is_playoff=False)))
    for season in rows:
        running = season.state == "published" and (season.first is None or season.first <= today)
        Season.objects.filter(pk=season.pk).update(is_current=running)


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0013_season_playoff_slots"),
    ]

    operations = [
        migrations.AddField(
            model_name="season",
            name="finished_at",
            field=models.DateTimeField(
                blank=True, editable=False, null=True, verbose_name="finished at"
            ),
        ),
        migrations.AddField(
            model_name="season",
            name="finished_reason",
            field=models.CharField(
                blank=True, editable=False, max_length=500, verbose_name="why it was finished"
            ),
        ),
        migrations.AddField(
            model_name="season",
            name="state",
            field=models.CharField(
                choices=[("draft", "draft"), ("published", "published"), ("finished", "finished")],
                default="draft",
                editable=False,
                help_text="Changed by publishing or finishing the season, never by hand.",
                max_length=12,
                verbose_name="state",
            ),
        ),
        migrations.RunPython(seasons_get_a_life, seasons_back_to_current),
        migrations.RemoveField(
            model_name="season",
            name="is_current",
        ),
        migrations.CreateModel(
            name="Availability",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "answer",
                    models.CharField(
                        choices=[("in", "in"), ("out", "out"), ("maybe", "maybe")],
                        max_length=8,
                        verbose_name="answer",
                    ),
                ),
                ("answered_at", models.DateTimeField(auto_now=True, verbose_name="answered at")),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="availability",
                        to="league.player",
                        verbose_name="player",
                    ),
                ),
                (
                    "week",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="availability",
                        to="league.week",
                        verbose_name="night",
                    ),
                ),
            ],
            options={
                "verbose_name": "availability",
                "verbose_name_plural": "availability",
                "ordering": ["week", "player"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("player", "week"), name="availability_one_answer_per_night"
                    )
                ],
            },
        ),
    ]
