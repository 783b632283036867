"""What a captain reads before confirming, on a phone: the game page's deal list.

A deal entered with cards lists each seat's show with its own "count" toggle right under the
seat's name, in counting order (the pone first, the dealer last, then the crib), at 360 and
390 px as on a desktop."""

from __future__ import annotations

from itertools import pairwise

import pytest

from league.models import Deal, Game
from league.services.demo import build_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# For each seat's show in deal ``n``'s row (and the crib): its name box, its toggle's box.
SHOW_BOXES = """(n) => {
  const row = [...document.querySelectorAll('table.deals tbody tr')][n - 1];
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  return [...row.querySelectorAll('.show')].map((show) => ({
    who: show.dataset.show,
    name: show.querySelector('.show-name').textContent.trim(),
    nameBox: box(show.querySelector('.show-name')),
    toggle: show.querySelector('summary') ? box(show.querySelector('summary')) : null,
  }));
}"""


def _game_with_cards() -> tuple[Game, Deal]:
    build_demo(weeks_played=1)
    deal = (
        Deal.objects.filter(is_current=True, number=1)
        .exclude(cards={})
        .exclude(cards__isnull=True)
        .select_related("game__match__week__season")
        .order_by("game_id")
        .first()
    )
    assert deal is not None and deal.starter, "the demo enters its deals with cards"
    return deal.game, deal


def _expected(game: Game, deal: Deal) -> list[str]:
    """The seats in counting order, then the crib, as ``data-show`` names them."""
    variant = game.match.week.season.game_variant
    order = [str(s) for s in variant.show_order(deal.dealer) if str(s) in deal.shows]
    return order + (["crib"] if deal.crib is not None else [])


@pytest.mark.parametrize("width", [360, 390, 1280])
def test_each_show_has_its_count_toggle_under_its_own_name(live_server, browser, shot, width):
    game, deal = _game_with_cards()
    names = {s.seat: s.player.name for s in game.seats.select_related("player")}
    context = browser.new_context(
        viewport={"width": width, "height": 900}, locale="en", service_workers="block"
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    shows = page.evaluate(SHOW_BOXES, 1)
    shot(page, f"game-shows-{width}")
    context.close()

    assert [s["who"] for s in shows] == _expected(game, deal)
    for s in shows:
        if s["who"] != "crib":
            assert s["name"] == f"{names[int(s['who'])]} {deal.shows[s['who']]}"
        toggle, name = s["toggle"], s["nameBox"]
        assert toggle is not None, f"{s['name']} has no count toggle"
        # Under its own name: below it, starting where the name starts (not in another column).
        assert toggle["top"] >= name["bottom"] - 1, s
        assert abs(toggle["left"] - name["left"]) <= 4, s
    # Each seat's block is below the previous one's toggle: nothing sits beside another seat.
    seats = [s for s in shows if s["who"] != "crib"]
    for before, after in pairwise(seats):
        assert after["nameBox"]["top"] >= before["toggle"]["bottom"] - 1, (before, after)
