"""deploy/nginx.conf's visitors' micro-cache, run: Debian's nginx in front of a live Django.

The configuration under test is the production file with only its container lines replaced
(deploy/nginx_local.py). Skipped, saying why, when nginx is not installed (apt-get install
nginx-light); CI installs it and sets PEGBOARD_REQUIRE_NGINX, which turns the skip into a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from deploy.nginx_local import LocalNginx, start_nginx
from tests.factories import play

pytestmark = pytest.mark.django_db(transaction=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def nginx(live_server, tmp_path):
    if not shutil.which("nginx") and not Path("/usr/sbin/nginx").exists():
        if os.environ.get("PEGBOARD_REQUIRE_NGINX"):  # CI: a missing nginx is a failure
            pytest.fail("PEGBOARD_REQUIRE_NGINX is set but nginx is not installed")
        pytest.skip("needs Debian's nginx (apt-get install nginx-light)")
    upstream = urlsplit(live_server.url).netloc
    server = start_nginx(workdir=tmp_path / "nginx", port=free_port(), upstream=upstream)
    yield server
    server.stop()


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None  # a redirect is an answer like any other here


OPENER = urllib.request.build_opener(_NoRedirects)


def get(nginx: LocalNginx, path: str, **headers: str) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(nginx.url + path, headers=headers)
    try:
        with OPENER.open(request, timeout=15) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


def cache_keys(nginx: LocalNginx) -> list[str]:
    """The KEY line nginx writes at the head of every cache file."""
    keys = []
    for path in (nginx.workdir / "cache").rglob("*"):
        if path.is_file():
            # The binary header before the KEY line holds timestamps and a CRC, whose bytes can
            # be newlines: find the line by its marker, not by counting lines.
            found = re.search(rb"\nKEY: ([^\n]*)\n", path.read_bytes())
            if found:
                keys.append(found.group(1).decode(errors="replace"))
    return keys


def signed_in_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    name = django_settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"


@pytest.fixture
def half_game(game, ann):
    """Game 1 after three deals."""
    return play(game, ann, deals=3)


def test_a_visitors_second_request_is_served_by_nginx(nginx, venue_week, half_game):
    boards = reverse("league:scoreboard_boards", args=[venue_week.venue_id, venue_week.pk])
    standings = reverse("league:standings", args=[venue_week.season_id])
    for path in (boards, standings):
        status, first, body = get(nginx, path)
        assert status == 200 and first["X-Cache-Status"] == "MISS"
        status, second, again = get(nginx, path)
        assert status == 200 and second["X-Cache-Status"] == "HIT", path
        assert again == body


def test_each_tv_screen_is_cached_on_its_own(nginx, venue_week, tables_33):
    boards = reverse("league:scoreboard_boards", args=[venue_week.venue_id, venue_week.pk])
    answers = {}
    for path in (boards, f"{boards}?screen=2"):
        status, first, body = get(nginx, path)
        assert status == 200 and first["X-Cache-Status"] == "MISS", path
        status, second, again = get(nginx, path)
        assert second["X-Cache-Status"] == "HIT" and again == body, path
        answers[path] = (first["ETag"], body)
    (etag_1, body_1), (etag_2, body_2) = answers.values()
    assert etag_1 != etag_2
    assert "Table 1<" in body_1 and "Table 33<" not in body_1
    assert "Table 33<" in body_2 and "Table 1<" not in body_2


def test_a_tv_that_sends_back_its_etag_gets_a_304_from_nginx(nginx, venue_week, half_game):
    boards = reverse("league:scoreboard_boards", args=[venue_week.venue_id, venue_week.pk])
    _, headers, _ = get(nginx, boards)
    status, again, body = get(nginx, boards, **{"If-None-Match": headers["ETag"]})
    assert status == 304 and body == ""
    assert again["X-Cache-Status"] == "HIT"


def test_a_signed_in_captain_always_reaches_django_and_sees_their_own_page(
    nginx, venue_week, half_game, ann
):
    page = reverse("league:game", args=[half_game.pk])
    mine = f"Log out ({ann.get_username()})"
    visitor_status, _, visitor_body = get(nginx, page)  # a visitor fills the cache first
    assert visitor_status == 200 and mine not in visitor_body
    for _ in range(2):
        status, headers, body = get(nginx, page, Cookie=signed_in_cookie(ann))
        assert status == 200 and headers["X-Cache-Status"] == "BYPASS"
        assert mine in body
    # What Django drew for the captain was not stored: the next visitor never sees it.
    _, _, later_body = get(nginx, page)
    assert mine not in later_body
    assert all("sessionid" not in key for key in cache_keys(nginx))


def test_visitors_share_a_page_whatever_their_cookies_and_the_key_holds_none(
    nginx, venue_week, half_game
):
    rules = reverse("league:rules")
    # Well-formed CSRF cookies (one from an earlier visit to the login page) and others.
    alice = f"csrftoken={'alicecookietext'.ljust(32, 'a')}; _ga=ALICE-COOKIE-TEXT; theme=dark"
    bob = f"csrftoken={'bobcookietext'.ljust(32, 'b')}; _ga=BOB-COOKIE-TEXT"
    _, first, _ = get(nginx, rules, Cookie=alice)
    _, second, _ = get(nginx, rules, Cookie=bob)
    assert (first["X-Cache-Status"], second["X-Cache-Status"]) == ("MISS", "HIT")
    keys = cache_keys(nginx)
    assert keys
    assert not any(word in key for key in keys for word in ("cookietext", "COOKIE", "theme"))
    assert any(key.endswith(f"{rules}|") for key in keys)  # address and language, nothing else


def test_one_visitors_query_text_never_reaches_another_visitor(nginx, venue_week, half_game):
    standings = reverse("league:standings", args=[venue_week.season_id])
    get(nginx, f"{standings}?sort=-points&ref=MARKED-QUERY-TEXT")
    status, headers, plain = get(nginx, standings)
    assert status == 200 and headers["X-Cache-Status"] == "MISS"  # not the other visitor's entry
    assert "MARKED-QUERY-TEXT" not in plain


def test_the_cache_keeps_each_language_apart(nginx, venue_week, half_game):
    rules = reverse("league:rules")
    _, fr_headers, french = get(nginx, rules, **{"Accept-Language": "fr-FR,fr;q=0.9"})
    _, en_headers, english = get(nginx, rules, **{"Accept-Language": "en-GB,en;q=0.9"})
    _, cookie_headers, by_cookie = get(
        nginx, rules, **{"Accept-Language": "en-GB", "Cookie": "django_language=fr"}
    )
    assert fr_headers["Content-Language"] == "fr" and en_headers["Content-Language"] == "en"
    assert en_headers["X-Cache-Status"] == "MISS"  # not the French copy
    assert cookie_headers["X-Cache-Status"] == "HIT" and by_cookie == french
    assert english != french


def test_answers_that_set_a_cookie_and_posts_are_never_stored(nginx, venue_week, half_game):
    choose = f"{reverse('league:language')}?language=fr&next=/rules/"
    for _ in range(2):
        status, headers, _ = get(nginx, choose)
        assert status == 302 and "django_language=fr" in headers["Set-Cookie"]
        assert headers["X-Cache-Status"] == "MISS"
    post = urllib.request.Request(nginx.url + reverse("league:rules"), data=b"x=1", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:  # no CSRF token: Django refuses it
        urllib.request.urlopen(post, timeout=15)
    assert refused.value.code == 403
    assert refused.value.headers["X-Cache-Status"] in (None, "MISS", "BYPASS")


def test_a_new_deal_reaches_visitors_well_within_a_tvs_five_seconds(
    nginx, venue_week, half_game, ann
):
    import time

    boards = reverse("league:scoreboard_boards", args=[venue_week.venue_id, venue_week.pk])
    _, before, _ = get(nginx, boards)
    play(half_game, ann, start=4, deals=4)
    half_game.refresh_from_db()
    started = time.monotonic()
    deadline = started + 5
    while time.monotonic() < deadline:
        _, headers, body = get(nginx, boards)
        if headers["X-Boards-Signature"] != before["X-Boards-Signature"]:
            break
        time.sleep(0.2)
    assert f"Fifteen Two {half_game.home_score}" in body
    assert time.monotonic() - started < 3  # one second of nginx, one of Django's shared copy


@pytest.mark.parametrize(
    "cookie",
    [
        "django_language=en; django_language=fr",  # nginx reads the first, Django the last
        "\tdjango_language=fr",  # nginx sees no such cookie behind the tab, Django does
        "other=1;\tdjango_language=fr",
    ],
)
def test_an_odd_language_cookie_never_stores_a_page_under_the_wrong_language(
    nginx, venue_week, half_game, cookie
):
    """Security review, L6: such a request goes to Django and its page is not stored, so the next
    English visitor gets English."""
    rules = reverse("league:rules")
    _, odd_headers, _odd = get(nginx, rules, **{"Accept-Language": "en-GB", "Cookie": cookie})
    assert odd_headers["X-Cache-Status"] == "BYPASS"
    _, headers, english = get(nginx, rules, **{"Accept-Language": "en-GB,en;q=0.9"})
    assert headers["Content-Language"] == "en"
    assert 'lang="en"' in english
