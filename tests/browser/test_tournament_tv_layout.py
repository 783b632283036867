"""The tournament TV at 1920x1080: every header and row of the seating and the standings reads
at WCAG AA contrast (from the colours the browser computes), and the bracket fills the screen
at the end."""

from __future__ import annotations

import pytest

from tests.browser.conftest import TV
from tests.tournaments.conftest import director, field, night, play_round  # noqa: F401
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each cell's text colour and the first opaque background behind it, as the browser paints them.
CONTRAST = """
sel => {
  function rgb(s) { const m = s.match(/rgba?\\(([^)]+)\\)/); const p = m[1].split(',').map(Number);
                    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; }
  function lum(c) { return [c.r, c.g, c.b].map(v => { v /= 255;
                    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
                    .reduce((acc, v, i) => acc + v * [0.2126, 0.7152, 0.0722][i], 0); }
  function background(el) { for (let n = el; n; n = n.parentElement) {
      const c = rgb(getComputedStyle(n).backgroundColor); if (c.a > 0.99) return c; }
    return {r: 255, g: 255, b: 255, a: 1}; }
  return [...document.querySelectorAll(sel)].filter(el => el.innerText.trim()).map(el => {
    const fg = rgb(getComputedStyle(el).color), bg = background(el);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    return {text: el.innerText.trim(), ratio: (hi + 0.05) / (lo + 0.05)};
  });
}
"""


def _check(page, selector):
    cells = page.evaluate(CONTRAST, selector)
    assert cells, f"nothing matched {selector}"
    low = [c for c in cells if c["ratio"] < 4.5]
    assert low == [], low
    return cells


def test_the_seating_and_standings_read_at_aa_contrast(
    live_server,
    browser,
    shot,
    night,  # noqa: F811
    director,  # noqa: F811
    field,  # noqa: F811
):
    play_round(night, director, winner_first=True, score=100)
    services.round_seat_next(user=director, tournament=night)
    context = browser.new_context(viewport=TV)
    page = context.new_page()
    page.goto(f"{live_server.url}/tournaments/{night.pk}/tv/")
    header = _check(page, "[data-seating] thead th")
    rows = _check(page, "[data-seating] tbody td")
    assert len(header) == 4 and len(rows) >= 3 * 3 + 1  # three tables and the bye
    _check(page, "[data-tv-standings] th, [data-tv-standings] td, [data-tv-standings] small")
    _check(page, ".ttv-head h1, .ttv-round")
    # Nothing hides past the screen's edge.
    assert page.evaluate("document.documentElement.scrollWidth") <= TV["width"]
    assert page.locator("[data-qualifier]").count() == 2
    shot(page, "tournament-tv-seating-1920", full_page=False)
    context.close()


def test_the_bracket_fills_the_screen_at_the_end(
    live_server,
    browser,
    shot,
    night,  # noqa: F811
    director,  # noqa: F811
    field,  # noqa: F811
):
    for _ in range(3):
        play_round(night, director)
    services.bracket_draw(user=director, tournament=night)
    context = browser.new_context(viewport=TV)
    page = context.new_page()
    page.goto(f"{live_server.url}/tournaments/{night.pk}/tv/")
    box = page.locator("[data-bracket]").bounding_box()
    assert box["width"] >= 0.9 * TV["width"]
    assert box["y"] + box["height"] >= 0.85 * TV["height"]
    assert box["height"] >= 0.7 * TV["height"]
    _check(page, ".bracket-match > div, .bracket-round h3")
    shot(page, "tournament-tv-bracket-1920", full_page=False)
    context.close()
