"""Texts the system writes into stored data, kept as a code and parameters and written out in
the reader's language when read (not frozen in the language of whoever caused them).

A stored text is ``(code, params)``; ``render`` writes it in the active language, and falls
back to the free text stored beside it when the code is empty or unknown (older rows, texts
a person typed). ``parse_rival_claim`` reads the English a dispute made from two rival entries
used to store, for the data migration (0018_stored_texts); ``parse_reason`` reads a deal
correction's reason stored as words (in any of the site's languages), for 0021_reason_codes.

Codes (do not rename: rows store them):
- ``rival_entries``: "Deal n was entered twice: a entered x, b entered y." ``params``:
  ``n`` (deal number), ``a``/``b`` (usernames), ``x``/``y`` (each a list of parts: ``"Name 6"``
  as data, or ``["crib", 4]``).
- ``took_rival`` (a deal's correction reason): "Took the numbers who entered for deal n."
  ``params``: ``n``, ``who`` (username), and ``rival`` (the rival entry's id) when known.
- ``ruling`` (a deal's correction reason): "Ruling on dispute #n (rule): ruling." ``params``:
  ``n`` (the dispute), ``rule`` (its id), ``ruling`` (the judge's words, never translated).
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

RIVAL_ENTRIES = "rival_entries"
TOOK_RIVAL = "took_rival"
RULING = "ruling"

#: The reasons of a deal's correction the system writes: code -> its sentence (the msgid).
REASONS = {
    TOOK_RIVAL: gettext_noop("Took the numbers %(who)s entered for deal %(n)s."),
    RULING: gettext_noop("Ruling on dispute #%(n)s (%(rule)s): %(ruling)s"),
}

Part = str | list[Any]


def deal_parts(
    pegging: dict[str, int], shows: list[tuple[str, int]], crib: int | None
) -> list[Part]:
    """A deal's numbers as parts: each team's pegging and each player's show (names are data),
    then the crib (a word, translated when read)."""
    parts: list[Part] = [f"{team} {p}" for team, p in pegging.items()]
    parts += [f"{player} {points}" for player, points in shows]
    if crib is not None:
        parts.append(["crib", crib])
    return parts


def _parts_text(parts: list[Part]) -> str:
    out = []
    for part in parts:
        if isinstance(part, list) and len(part) == 2 and part[0] == "crib":
            out.append(_("crib %(n)s") % {"n": part[1]})
        else:
            out.append(str(part))
    return ", ".join(out)


def render(code: str, params: dict[str, Any] | None, fallback: str = "") -> str:
    """The stored text ``code`` with ``params`` in the active language; ``fallback`` when the
    code is empty or unknown, or its parameters do not fit."""
    params = params or {}
    try:
        if code == RIVAL_ENTRIES:
            return _("Deal %(n)s was entered twice: %(a)s entered %(x)s, %(b)s entered %(y)s.") % {
                "n": params["n"],
                "a": params["a"],
                "x": _parts_text(params["x"]),
                "b": params["b"],
                "y": _parts_text(params["y"]),
            }
        if code == TOOK_RIVAL:
            return _(REASONS[TOOK_RIVAL]) % {"who": params["who"], "n": params["n"]}
        if code == RULING:
            return _(REASONS[RULING]) % {
                "n": params["n"],
                "rule": params["rule"],
                "ruling": params["ruling"],
            }
    except (KeyError, TypeError):
        return fallback
    return fallback


def written(code: str, params: dict[str, Any]) -> str:
    """The stored text in the site's own language, kept as its words beside the code (what an
    export or a reader of the raw row sees)."""
    with translation.override(settings.LANGUAGE_CODE):
        return render(code, params)


_RIVAL = re.compile(
    r"^Deal (?P<n>\d+) was entered twice: (?P<a>\S+) entered (?P<x>.+), (?P<b>\S+) entered "
    r"(?P<y>.+)\.$",
    re.DOTALL,
)
_CRIB = re.compile(r"^crib (\d+)$")


def parse_rival_claim(text: str) -> dict[str, Any] | None:
    """The parameters of a ``rival_entries`` text stored in English, or None when ``text`` is
    not one (a claim a person wrote stays as it is)."""
    match = _RIVAL.match(text.strip())
    if not match:
        return None

    def parts(summary: str) -> list[Part]:
        out: list[Part] = []
        for piece in summary.split(", "):
            crib = _CRIB.match(piece)
            out.append(["crib", int(crib.group(1))] if crib else piece)
        return out

    return {
        "n": int(match["n"]),
        "a": match["a"],
        "x": parts(match["x"]),
        "b": match["b"],
        "y": parts(match["y"]),
    }


_GROUPS = {"n": r"(?P<n>\d+)", "who": r"(?P<who>.+?)", "rule": r"(?P<rule>\S+?)"}


def _pattern(sentence: str) -> re.Pattern[str]:
    """``sentence`` (a ``%(name)s`` format) as a pattern that reads its parameters back."""
    out, last = [], 0
    for match in re.finditer(r"%\((\w+)\)s", sentence):
        out.append(re.escape(sentence[last : match.start()]))
        out.append(_GROUPS.get(match[1], rf"(?P<{match[1]}>.+)"))
        last = match.end()
    out.append(re.escape(sentence[last:]))
    return re.compile("^" + "".join(out) + "$", re.DOTALL)


def parse_reason(text: str) -> tuple[str, dict[str, Any]] | None:
    """The code and parameters of a deal's correction reason the system wrote as words (in
    any of the site's languages), or None for any other text (a reason a person typed)."""
    text = (text or "").strip()
    for code, msgid in REASONS.items():
        for language, _name in settings.LANGUAGES:
            with translation.override(language):
                match = _pattern(_(msgid)).match(text)
            if match:
                params: dict[str, Any] = match.groupdict()
                params["n"] = int(params["n"])
                return code, params
    return None


#: Sentences the system stores whole (a ruling on a voided or cancelled game, the reason of a
#: team's own second entry): the English msgid is the code. Rows store whichever language was
#: active; ``fixed`` reads any of them back in the reader's language.
FIXED = (
    gettext_noop("The game was voided."),
    gettext_noop("The game was cancelled before its first deal."),
    gettext_noop("Sent again with other numbers by the team that entered it."),
)


def fixed(text: str) -> str:
    """``text`` in the reader's language when it is one of the ``FIXED`` sentences (stored in
    any of the site's languages); any other text (what a person wrote) as it is."""
    if not text:
        return text
    for msgid in FIXED:
        for language, _name in settings.LANGUAGES:
            with translation.override(language):
                found = _(msgid) == text
            if found:
                return _(msgid)  # in the reader's language, outside the override
    return text
