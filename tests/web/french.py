"""English left on a French page, found in the text a person reads: what the French walk
(``test_french_everywhere``) and the pages tested on their own (the paper scorecards) check.

What counts as English: a whole word from a short list of very common English words that are
not French words too (``ENGLISH``), in the text a person reads (headings, cells, buttons,
labels, the ``title``/``aria-label``/``placeholder``/``alt`` attributes). Left out before the
check: the data (the ``names`` given), cards like ``5H``, scripts and styles,
``<code>``/``<kbd>``, anything marked ``lang`` other than French, and English the French quotes
on purpose between guillemets.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

#: Very common English words that are not French words (words written the same in French are
#: left out: "points", "match", "total", "score", "table", "page", "date", "dispute", "change",
#: "sent", "me", "us", "as", "on", "or", "but", "an", "a", "en").
ENGLISH = frozenset(
    """the and with you your yours this that these those there here what which who when where
    why how is are was were be been being has have had will would can could should must may
    not no yes of to for from by into onto over under after before about than then only also
    all any each every some none it its they them their our we he she his her my
    scored game games week weeks team teams player players season seasons standings schedule
    deal deals dealer hand hands round rounds won lost win wins loss played play plays enter
    entered save saved send back home away next previous first last logout login password
    name time open closed finished waiting started start confirm confirmed reject rejected
    judge judges rules rule view edit delete add search filter history""".split()
)

#: Words of that list that are also written this way on a French page, by design.
SAME_IN_FRENCH: frozenset[str] = frozenset(
    {
        # None yet: every word above that appears on a French page is English.
    }
)

#: Words a French page shows as its English version does: cribbage's own words, the brand,
#: units and abbreviations.
SAME_IN_BOTH = frozenset(
    """pegboard points point total match matches crib spread skunk skunks tv api csv json
    admin django table date score scores place champions pts version action actions go position
    satellite places club clubs note national message
    français""".split()
)

SKIPPED_TAGS = {"script", "style", "code", "kbd", "svg", "template", "noscript"}
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")


class _Text(HTMLParser):
    """The text a person reads on a page, as runs (one per text node or attribute)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.runs: list[str] = []
        self._skip: list[str] = []  # open tags whose content is not checked

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        lang = attributes.get("lang")
        if tag in SKIPPED_TAGS or (lang and tag != "html" and not lang.startswith("fr")):
            if tag not in ("br", "img", "input", "meta", "link", "hr", "source", "wbr"):
                self._skip.append(tag)
            return
        if self._skip:
            return
        for name in READ_ATTRIBUTES:
            if attributes.get(name):
                self.runs.append(str(attributes[name]))
        if tag == "input" and attributes.get("type") in ("submit", "button", "reset"):
            self.runs.append(attributes.get("value") or "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self._skip:
            self.handle_starttag(tag, attrs)
            if self._skip and self._skip[-1] == tag:
                self._skip.pop()

    def handle_endtag(self, tag: str) -> None:
        if self._skip and self._skip[-1] == tag:
            self._skip.pop()

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.runs.append(data)


def _runs(html: str, names: list[str]) -> list[tuple[str, str]]:
    """(the run as shown, the run with the data and quotations taken out) for each run of
    ``html``'s readable text; ``names`` are the data's proper nouns, longest first."""
    parser = _Text()
    parser.feed(html)
    runs = []
    for run in parser.runs:
        if _is_json(run):
            continue  # a stored JSON value shown in the admin: data, keys and all
        text = re.sub(r"«[^»]*»|“[^”]*”", " ", run)
        for name in names:
            if name in text:
                text = text.replace(name, " ")
        text = re.sub(r"(?<!\w)(?:10|[2-9AJQKT])[CDHS♣♦♥♠](?!\w)", " ", text)
        text = re.sub(r"\b\w+_\w+\b", " ", text)  # codes (a tie-break's key, an action)
        runs.append((re.sub(r"\s+", " ", run).strip(), re.sub(r"\s+", " ", text).strip()))
    return runs


def _is_json(run: str) -> bool:
    if not run.strip().startswith(("[", "{")):
        return False
    try:
        json.loads(run)
    except ValueError:
        return False
    return True


def english_runs(html: str, names: list[str]) -> list[str]:
    """The runs of ``html``'s readable text with a word of ``ENGLISH`` in them, once ``names``
    and quotations are taken out."""
    found = []
    for shown, text in _runs(html, names):
        words = {w.lower() for w in re.findall(r"[^\W\d_]+", text)}
        if words & (ENGLISH - SAME_IN_FRENCH):
            found.append(shown)
    return found


def untranslated_runs(french: str, english: str, names: list[str]) -> list[str]:
    """The runs of the French page that the English page shows word for word (a string nobody
    marked for translation, whatever its words), data and words the same in both aside."""
    said_in_english = {text for _shown, text in _runs(english, names)}
    found = []
    for shown, text in _runs(french, names):
        words = [w for w in re.findall(r"[^\W\d_]+", text) if w.lower() not in SAME_IN_BOTH]
        if len(max(words, key=len, default="")) > 1 and text in said_in_english:
            found.append(shown)
    return found
