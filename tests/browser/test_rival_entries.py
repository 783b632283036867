"""Rival entries on a phone (390 px): the numbers two versions of a deal do not agree on are
marked in both and said to differ to a screen reader; the sync banner says a conflict waits
(not "everything is sent") and never covers the conflict's heading as the page scrolls."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, log_in, rival_deal_3

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ann", "Cat", "Bob", "Dan"]  # the game fixture's seats, clockwise

# The marked values of each version of deal ``n``, with what a screen reader hears.
MARKED = """(n) => [...document.querySelectorAll('[data-rival="' + n + '"] .rival-version, '
    + '.rival[data-number="' + n + '"] .rival-versions > .card')]
  .map((v) => [...v.querySelectorAll('mark.differs')].map((m) => ({
    seen: [...m.childNodes].filter((c) => !(c.classList && c.classList.contains('visually-hidden')))
      .map((c) => c.textContent).join('').trim(),
    heard: m.textContent.trim(),
  })))"""

# Whether the sticky banner's box overlaps the conflict heading's box, the heading brought
# ``k`` px below the top of the screen.
OVERLAP = """([selector, k]) => {
  const heading = document.querySelector(selector);
  const top = heading.getBoundingClientRect().top + window.scrollY;
  window.scrollTo(0, Math.max(0, top - k));
  const a = document.querySelector('[data-sync-status]').getBoundingClientRect();
  const b = heading.getBoundingClientRect();
  return a.bottom > b.top && b.bottom > a.top && a.height > 0;
}"""


def test_a_rival_entry_marks_what_differs_and_the_banner_says_a_conflict_waits(
    live_server, browser, shot, game, ann, cat
):
    ours, theirs, seat = rival_deal_3(game, ann, cat)
    side1 = game.match.away.name if game.home_side == 0 else game.match.home.name
    context = browser.new_context(viewport=PHONE, locale="en-GB", service_workers="block")
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, live_server, "cat")

    # The entry page: both versions, the two differing numbers marked in each.
    page.goto(f"{live_server.url}/games/{game.pk}/enter/")
    page.wait_for_selector('[data-rival="3"]')
    page.wait_for_selector('[data-sync-status][data-pending="0"]')
    expected = [
        [
            {
                "seen": f"{side1} {version['pegging'][1]}",
                "heard": f"{side1} {version['pegging'][1]} (differs)",
            },
            {
                "seen": f"{NAMES[int(seat)]} {version['shows'][seat]}",
                "heard": f"{NAMES[int(seat)]} {version['shows'][seat]} (differs)",
            },
        ]
        for version in (ours, theirs)
    ]
    assert page.evaluate(MARKED, 3) == expected

    # The banner: a conflict waits, and it never covers the conflict's heading.
    banner = page.locator("[data-sync-status]")
    assert banner.get_attribute("data-state") == "conflict"
    assert "a conflict waits: deal 3 was entered twice" in banner.inner_text()
    assert "Everything is sent: the server has every deal." not in banner.inner_text()
    heading = '[data-rival="3"] h2'
    covered = [k for k in range(0, 400, 10) if page.evaluate(OVERLAP, [heading, k])]
    assert covered == []
    shot(page, "rival-entry-390")

    # The game page: the same two versions, the same numbers marked.
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.evaluate(MARKED, 3) == expected
    shot(page, "rival-game-390")
    context.close()
