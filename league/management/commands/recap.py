"""``manage.py recap --week ID [--lang fr]``: the week's story as plain text, ready to paste."""

from __future__ import annotations

from django.core.management.base import CommandError

from league.kernel.commands import StoryCommand
from league.kernel.recap import Recap
from league.models import Week
from league.selectors.recap import recap_week, week_recap


class Command(StoryCommand):
    help = "Print a league week's story (results, upsets, special hands, skunks, standings)."
    option = "week"
    option_help = "the week's id"

    def story(self, pk: int) -> Recap:
        try:
            week = recap_week(pk)
        except Week.DoesNotExist:
            raise CommandError(f"No week has the id {pk}.") from None
        return week_recap(week)
