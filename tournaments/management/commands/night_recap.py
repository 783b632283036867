"""``manage.py night_recap --night ID [--lang fr]``: a club night's story as plain text."""

from __future__ import annotations

from django.core.management.base import CommandError

from league.kernel.commands import StoryCommand
from league.kernel.recap import Recap
from tournaments.models import Tournament
from tournaments.recap import night_recap


class Command(StoryCommand):
    help = "Print a club night's story (its winner, top finishers, special hands, skunks)."
    option = "night"
    option_help = "the tournament's id"

    def story(self, pk: int) -> Recap:
        tournament = Tournament.objects.filter(pk=pk).first()
        if tournament is None:
            raise CommandError(f"No tournament has the id {pk}.")
        return night_recap(tournament)
