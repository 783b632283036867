"""What the two competitions' management commands share."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation

from league.kernel.recap import Recap, recap_text


class StoryCommand(BaseCommand):
    """``manage.py <name> --<option> ID [--lang fr]``: a story as plain text, ready to paste.
    A subclass names its option and finds the story (a ``CommandError`` when the id is none)."""

    option = "id"
    option_help = "the id"

    def story(self, pk: int) -> Recap:
        raise NotImplementedError

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(f"--{self.option}", type=int, required=True, help=self.option_help)
        parser.add_argument(
            "--lang",
            choices=[code for code, _name in settings.LANGUAGES],
            default=settings.LANGUAGE_CODE,
            help="the language of the story",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        recap = self.story(options[self.option])
        with translation.override(options["lang"]):
            self.stdout.write(recap_text(recap), ending="")
