"""The installable web app for captains: the manifest and the service worker that lets the
score-entry page open with no signal (its guarantees are in templates/pwa/sw.js)."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _

SHELL_FILES = (
    "css/pegboard.css",
    "css/dealform.css",
    "js/outbox.js",
    "js/dealform.js",
    "js/entry.js",
    "js/scorecard.js",
    "js/scorecard_deals.js",
    "js/pwa.js",
    "icons/peg.svg",
)


@cache
def shell_version() -> str:
    """A fingerprint of the worker's template and the files it keeps: a deploy that changes
    any of them gives phones a new worker, which drops the old copies."""
    digest = hashlib.sha1(Path(__file__).read_bytes())
    template = Path(__file__).resolve().parents[2] / "templates" / "pwa" / "sw.js"
    digest.update(template.read_bytes())
    for name in SHELL_FILES:
        found = finders.find(name)
        digest.update(Path(str(found)).read_bytes() if found else name.encode())
    return digest.hexdigest()[:12]


def service_worker(request: HttpRequest) -> HttpResponse:
    """The worker, served from the site's root so that it may serve every page. Never cached by
    the browser's HTTP cache, so a deploy reaches phones on their next visit."""
    shell = [*(static(name) for name in SHELL_FILES), reverse("league:jsi18n")]
    response = render(
        request,
        "pwa/sw.js",
        {"shell": shell, "version": shell_version(), "icon": static("icons/peg.svg")},
        content_type="application/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: Pegboard on a captain's home screen opens the home page, where
    tonight's matches are."""
    icon = static("icons/peg.svg")
    response = JsonResponse(
        {
            "name": _("Pegboard: cribbage leagues"),
            "short_name": "Pegboard",
            "start_url": reverse("league:home"),
            "scope": "/",
            "display": "standalone",
            "background_color": "#f6f4ee",
            "theme_color": "#123d2c",
            "icons": [{"src": icon, "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
        },
        content_type="application/manifest+json",
    )
    return response
