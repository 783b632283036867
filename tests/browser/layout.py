"""The layout tests' one measure: every element whose content is wider than its own box.

A page is loaded once per language and resized to each width (the pages lay themselves out
with CSS alone: no script reads the window's width), so a width costs a measure, not a page
load. A width that overflows is kept as a screenshot, to show where; with
``PEGBOARD_SCREENSHOTS=all`` every width is (a third of these tests' time, spent on pictures
nobody opens when nothing overflows)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

# Every element whose content is wider than its own box, named so a failure says where. PARTS
# is the selector of what is measured (the whole body, or only the parts a feature adds);
# SKIPPED, of what is never counted, with what it holds.
_MEASURE = """() => {
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className
      ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  const bad = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) {
    bad.push('the page: ' + doc.scrollWidth + ' > ' + doc.clientWidth);
  }
  const parts = [...document.querySelectorAll('PARTS')];
  for (const el of parts.flatMap((p) => [...p.querySelectorAll('*')])) {
    if (el.closest('SKIPPED') || el.clientWidth === 0) continue;
    const style = getComputedStyle(el);
    if (style.display === 'inline' || style.visibility === 'hidden') continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      bad.push(name(el) + ': ' + el.scrollWidth + ' > ' + el.clientWidth);
    }
  }
  return bad;
}"""
_NEVER_COUNTED = "svg, .visually-hidden"


def overflows(*, scrolls: str = "") -> str:
    """The whole page; ``scrolls`` names boxes that scroll sideways by design, whose insides
    are not counted (a wide table in its ``.table-scroll``)."""
    skipped = f"{_NEVER_COUNTED}, {scrolls}" if scrolls else _NEVER_COUNTED
    return _MEASURE.replace("PARTS", "body").replace("SKIPPED", skipped)


#: The whole page.
OVERFLOWS = overflows()


def overflows_in(parts: str) -> str:
    """The page itself, then only the elements inside ``parts`` (and those parts)."""
    return (
        _MEASURE.replace("PARTS", parts)
        .replace("SKIPPED", _NEVER_COUNTED)
        .replace("[...p.querySelectorAll('*')]", "[p, ...p.querySelectorAll('*')]")
    )


def fits_at_widths(
    page,
    url: str,
    *,
    widths: Iterable[int],
    shot: Callable[..., object],
    name: str,
    on_purpose: tuple[str, ...] = (),
    measure: str = OVERFLOWS,
    height: int = 900,
    ready: str | None = None,
) -> dict[str, list[str]]:
    """Load ``url`` once and, at each width, measure it; what overflows, by the name
    ``name.format(width=...)``, which is also that width's screenshot (JPEG), kept where
    something overflows or every time with ``PEGBOARD_SCREENSHOTS=all``. Elements whose name
    starts with one of ``on_purpose`` scroll sideways by design and are not counted; ``ready``
    is a selector the page's script shows once it has set the page up."""
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    if ready:
        page.wait_for_selector(ready)
    problems = {}
    every_width = os.environ.get("PEGBOARD_SCREENSHOTS") == "all"
    for width in widths:
        page.set_viewport_size({"width": width, "height": height})
        found = [f for f in page.evaluate(measure) if not f.startswith(on_purpose)]
        if found or every_width:
            shot(page, name.format(width=width), jpeg=True)
        if found:
            problems[name.format(width=width)] = found
    return problems
