"""The records pages fit every screen (360, 390, 768 and 1920 px) in English and French, on the
demo league and its club season: nothing overflows its box. Screenshots in
artifacts/screenshots/records/."""

from __future__ import annotations

import pytest

from league.models import Match, Player
from league.services.demo import build_demo
from tests.browser.conftest import context_in
from tests.browser.layout import fits_at_widths
from tournaments.demo import build_demo_club_season

# French, whose longer words are the harder fit, in make test; English, the same pages and
# parts again, in make test-slow (CI runs both).
LANGUAGES = ["fr", pytest.param("en", marks=pytest.mark.slow)]
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (360, 390, 768, 1920)


def pages(base: str) -> dict[str, str]:
    season = build_demo(weeks_played=4).season
    build_demo_club_season()
    match = Match.objects.filter(week__season=season, week__number=1).order_by("table").first()
    assert match is not None  # two teams that have met, and a player of each
    team, other = match.home, match.away
    ann, cat = team.players.order_by("pk").first(), other.players.order_by("pk").first()
    assert isinstance(ann, Player) and isinstance(cat, Player)
    return {
        "index": f"{base}/records/",
        "honours": f"{base}/records/honours/",
        "hands": f"{base}/records/hands/",
        "skunks": f"{base}/records/skunks/",
        "streaks": f"{base}/records/streaks/",
        "picker": f"{base}/records/h2h/",
        "opponents": f"{base}/records/h2h/?player={ann.pk}",
        "teams": f"{base}/records/h2h/team/{team.pk}/{other.pk}/",
        "players": f"{base}/records/h2h/player/{ann.pk}/{cat.pk}/",
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_records_page_overflows_at_any_width(live_server, browser, shot, language):
    urls = pages(live_server.url)
    problems = {}
    context = context_in(browser, live_server, language)
    page = context.new_page()
    for name, url in urls.items():
        problems |= fits_at_widths(
            page, url, widths=WIDTHS, shot=shot, name=f"records/{name}-{{width}}-{language}"
        )
    context.close()
    assert problems == {}
