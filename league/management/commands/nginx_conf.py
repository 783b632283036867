"""Print the nginx site for a plain Debian or Ubuntu host, rendered from deploy/nginx.conf (the
file compose runs and the tests run): `manage.py nginx_conf --server-name pegboard.example.org`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser


def _default_name() -> str:
    for host in settings.ALLOWED_HOSTS:
        name = host.lstrip(".")
        if name and "*" not in name and name not in {"127.0.0.1", "localhost", "[::1]"}:
            return name
    return ""


class Command(BaseCommand):
    help = (
        "Print the nginx site (for /etc/nginx/sites-available/pegboard) of a host running "
        "Pegboard natively, from deploy/nginx.conf; certificates at certbot's usual paths."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        # deploy/ lives in the checkout, not in the image (which has no use for this command).
        from deploy.nginx_site import Site

        parser.add_argument(
            "--server-name", default=_default_name(), help="the site's name (ALLOWED_HOSTS')"
        )
        parser.add_argument(
            "--upstream",
            default=os.environ.get("GUNICORN_BIND", "127.0.0.1:8000"),
            help="gunicorn's address (GUNICORN_BIND)",
        )
        parser.add_argument("--static-root", default=str(settings.STATIC_ROOT))
        parser.add_argument("--certificate", default="", help="default: certbot's fullchain.pem")
        parser.add_argument("--certificate-key", default="", help="default: certbot's privkey.pem")
        parser.add_argument("--acme-root", default=Site.acme_root)
        parser.add_argument("--http-port", type=int, default=Site.http_port)
        parser.add_argument("--https-port", type=int, default=Site.https_port)
        parser.add_argument("--cache-dir", default=Site.cache_dir)
        parser.add_argument("--log-dir", default=Site.log_dir)
        parser.add_argument("-o", "--output", help="write here instead of printing")

    def handle(self, *args: Any, **options: Any) -> None:
        from deploy.nginx_site import Site, site_conf

        if not options["server_name"]:
            raise CommandError("Name the site: --server-name pegboard.example.org")
        if options["upstream"].startswith("unix:"):
            upstream = options["upstream"]
        else:
            upstream = options["upstream"].replace("0.0.0.0:", "127.0.0.1:")
        text = site_conf(
            Site(
                server_name=options["server_name"],
                upstream=upstream,
                static_root=options["static_root"],
                certificate=options["certificate"],
                certificate_key=options["certificate_key"],
                acme_root=options["acme_root"],
                http_port=options["http_port"],
                https_port=options["https_port"],
                cache_dir=options["cache_dir"],
                log_dir=options["log_dir"],
            )
        )
        if options["output"]:
            Path(options["output"]).write_text(text, encoding="utf-8")
        else:
            self.stdout.write(text, ending="")
