"""The shape of a request's path through our code: which of our functions it enters, and how
often it climbs back into a module it had left. Shared by the test that pins the deal
path (tests/api/test_deal_path.py) and ``bench/deal_path.py``, which prints it.

- **functions entered**: distinct functions of ``league/`` and ``tournaments/`` (not of
  ``scoring/``, Django or the standard library) called while ``run`` runs, counted once each,
  from the first call of ``start`` (a qualified name's ending, ``GameViewSet.deals``) on;
- **re-entries**: how many times the path climbs back into one of our modules it had left: a
  call into a module that is not the one the caller runs in, when that module was entered
  before and has since returned (services/deals.py -> permissions.py, back, then
  permissions.py again), or is still waiting further up the stack (permissions.py ->
  checks.py -> permissions.py: a call back up). A module calling its own helpers after a call
  out returned has not left: that is not a re-entry. Calls into code outside ours are
  neither leaving nor entering.
- **calls**: every call into one of our functions while ``run`` runs, each counted every time
  (a helper called twice counts twice), and of them the calls from one module into another;
- **moves back** (the deal path's first measure, kept for comparison): the same, but counting
  every call whose module differs from the module of the call before it (returns ignored),
  so a module calling its own helper after a call out counts as coming back.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OURS = ("league", "tournaments")


def module_of(frame: Any) -> str | None:
    """Our module a frame runs in (``league.services.deals``), or None for any other code."""
    path = Path(frame.f_code.co_filename)
    try:
        rel = path.resolve().relative_to(ROOT)
    except ValueError:
        return None
    if rel.parts[0] not in OURS or "migrations" in rel.parts:
        return None
    return ".".join(rel.with_suffix("").parts).removesuffix(".__init__")


@dataclass
class RunPath:
    """What one run entered: functions in first-call order, calls in order, per-module counts."""

    entered: list[str] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)  # "> " marks a call into another module
    reentries: Counter[str] = field(default_factory=Counter)
    entries: Counter[str] = field(default_factory=Counter)  # calls in from another module
    moves_back: Counter[str] = field(default_factory=Counter)
    calls_between: Counter[tuple[str | None, str]] = field(default_factory=Counter)
    visited: list[str] = field(default_factory=list)

    @property
    def functions(self) -> int:
        return len(self.entered)

    @property
    def reentered(self) -> int:
        return sum(self.reentries.values())

    @property
    def moved_back(self) -> int:
        return sum(self.moves_back.values())

    @property
    def calls_across(self) -> int:
        """Calls into one of our modules from another (or from code not ours)."""
        return sum(1 for call in self.calls if call.startswith(">"))

    def functions_of(self, module: str) -> int:
        return sum(1 for name in self.entered if name.startswith(module + "."))

    def report(self) -> str:
        """The figures, one line per module."""
        lines = [
            f"functions entered: {self.functions}",
            f"calls: {len(self.calls)} ({self.calls_across} from one of our modules into another)",
            f"re-entries into a module left before: {self.reentered}",
            f"moves back (the first measure, a module's own helpers counted): {self.moved_back}",
        ]
        for module in sorted(self.visited):
            lines.append(
                f"  {module}: {self.functions_of(module)} functions, entered"
                f" {self.entries[module]}x, re-entered {self.reentries[module]}x"
            )
        return "\n".join(lines)


def probe(run: Callable[[], Any], *, start: str) -> tuple[Any, RunPath]:
    """Run ``run`` under ``sys.setprofile``; return its result and the path it took, from the
    first call of a function whose qualified name ends with ``start`` on."""
    path = RunPath()
    seen: set[str] = set()
    stack: list[tuple[Any, str]] = []  # our frames now running, innermost last
    left: set[str] = set()  # modules entered that have no frame running now
    last: list[str | None] = [None]  # the module of the last call (the first measure)
    moved: set[str] = set()  # modules the first measure has seen

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "return":
            if stack and stack[-1][0] is frame:
                _, module = stack.pop()
                if all(m != module for _, m in stack):
                    left.add(module)
            return
        if event != "call":
            return
        module = module_of(frame)
        if module is None:
            return
        name = f"{module}.{frame.f_code.co_qualname}"
        if not stack and not name.endswith("." + start):
            return
        caller = stack[-1][1] if stack else None
        path.calls.append(("  " if module == caller else "> ") + name)
        if name not in seen:
            seen.add(name)
            path.entered.append(name)
        if module != caller:
            path.entries[module] += 1
            path.calls_between[caller, module] += 1
            if module in left or any(m == module for _, m in stack):
                path.reentries[module] += 1
            if module not in path.visited:
                path.visited.append(module)
            left.discard(module)
        if module != last[0]:
            if module in moved:
                path.moves_back[module] += 1
            moved.add(module)
            last[0] = module
        stack.append((frame, module))

    sys.setprofile(profile)
    try:
        result = run()
    finally:
        sys.setprofile(None)
    return result, path
