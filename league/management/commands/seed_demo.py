"""``manage.py seed_demo [--if-empty]``: the demo doubles league, played deal by deal."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.kernel.extensions import demos
from league.kernel.push import vapid_pair_for_demo
from league.models import League
from league.services.demo import LEAGUE_NAME, SEED, WEEKS_PLAYED, build_demo

DEFAULT_URL = "http://127.0.0.1:8000/"


class Command(BaseCommand):
    help = (
        "Build the demo league (Thursday Doubles, Fall 2026): accounts, eight teams, the "
        "round-robin schedule and four weeks of legal games played with the scorer, entered and "
        "confirmed through the services; and a demo club night (30 entrants, 9 rounds, the "
        "bracket drawn). The same every time (seeded)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing if any league exists"
        )
        parser.add_argument(
            "--url",
            default=DEFAULT_URL,
            help="the address the demo is served at, printed for the user (make demo passes "
            "its HOST and PORT)",
        )
        parser.add_argument("--seed", type=int, default=SEED, help="random seed (default 2026)")
        parser.add_argument(
            "--weeks", type=int, default=WEEKS_PLAYED, help="weeks played in full (default 4)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        url = options["url"].rstrip("/") + "/"
        if options["if_empty"] and League.objects.exists():
            self.stdout.write("A league exists already: nothing to seed.")
            self.stdout.write(f"Open {url}  (admin panel: {url}admin/, API: {url}api/)")
            return
        if League.objects.filter(name=LEAGUE_NAME).exists():
            raise CommandError(
                f"The demo league {LEAGUE_NAME!r} exists already. Delete db.sqlite3 (or use a "
                "fresh database) and run migrate first to seed it again."
            )
        started = time.monotonic()
        summary = build_demo(seed=options["seed"], weeks_played=options["weeks"])
        took = time.monotonic() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"Seeded {summary.league.name}, {summary.season.name}: "
                f"{summary.season.teams.count()} teams, {summary.games} games, "
                f"{summary.deals} deals ({took:.1f} s)."
            )
        )
        for build in demos():  # the tournaments' club night and club season
            build(url, lambda line: self.stdout.write(self.style.SUCCESS(line)))
        if vapid_pair_for_demo():
            self.stdout.write(
                self.style.SUCCESS(f"Made a Web Push key pair in {settings.PEGBOARD_VAPID_FILE}.")
            )
        self.stdout.write("")
        self.stdout.write(f"Open {url}  (admin panel: {url}admin/, API: {url}api/)")
        self.stdout.write("Log in with (user / password):")
        width = max(len(u) for u, _p, _r in summary.accounts)
        for username, password, role in summary.accounts:
            self.stdout.write(f"  {username.ljust(width)}  {password.ljust(11)}  {role}")
