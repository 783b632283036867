"""The layers hold: the scorer imports nothing of ours or Django's; models never import services."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def league_modules() -> dict[str, Path]:
    modules = {}
    for path in (ROOT / "league").rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    return modules


def test_the_scorer_uses_only_the_standard_library_and_itself():
    for path in (ROOT / "scoring").rglob("*.py"):
        for name in imports_of(path):
            top = name.split(".")[0]
            assert top == "scoring" or top in sys.stdlib_module_names, f"{path.name} imports {name}"


def test_models_never_import_services_views_or_the_api():
    for path in (ROOT / "league" / "models").rglob("*.py"):
        for name in imports_of(path):
            assert not name.startswith(
                ("league.services", "league.views", "league.api", "league.selectors")
            ), f"{path.name} imports {name}"


def test_views_api_admin_and_tasks_never_write_through_models_directly():
    """Writes go through services: no .save(), .create(, .update(, .delete() in the doors."""
    doors = [
        *(ROOT / "league" / "views").rglob("*.py"),
        *(ROOT / "league" / "api").rglob("*.py"),
        ROOT / "league" / "admin.py",
        ROOT / "league" / "tasks.py",
        ROOT / "league" / "tournaments" / "views.py",
        ROOT / "league" / "tournaments" / "club_views.py",
        ROOT / "league" / "tournaments" / "admin.py",
        *(ROOT / "league" / "tournaments" / "management").rglob("*.py"),
    ]
    for path in doors:
        text = path.read_text()
        for forbidden in (".objects.create(", ".save(", ".objects.update(", ".delete("):
            assert forbidden not in text, f"{path.relative_to(ROOT)} writes with {forbidden}"


def test_services_never_import_tasks_or_page_rendering():
    """Services queue tasks by name after commit, and never draw pages: the arrows point from
    the doors (views, tasks) to the services, not back. Every import counts, even in a function."""
    tournament_writes = [
        ROOT / "league" / "tournaments" / name
        for name in ("services.py", "archive.py", "demo.py", "selectors.py")
    ]
    for path in [*(ROOT / "league" / "services").rglob("*.py"), *tournament_writes]:
        for name in imports_of(path):
            assert not name.startswith(
                ("league.tasks", "league.rendering", "league.views", "league.tournaments.views")
            ), f"{path.name} imports {name}"
    for module in ("standings", "results"):  # the standings route: no way back to playoffs
        names = imports_of(ROOT / "league" / "services" / f"{module}.py")
        assert not any(n.startswith("league.services.playoffs") for n in names), module


def test_no_import_cycle_in_league():
    """Every import counts, at the top of a module or inside a function."""
    modules = league_modules()
    graph = {
        name: {n for n in imports_of(path) if n in modules and n != name}
        for name, path in modules.items()
    }
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            raise AssertionError(
                "import cycle: " + " -> ".join([*trail[trail.index(name) :], name])
            )
        if name in done:
            return
        for dep in sorted(graph[name]):
            visit(dep, [*trail, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_the_tournament_rules_are_pure():
    """``league.tournaments.logic`` is property-tested without a database: no Django, no ORM."""
    for name in imports_of(ROOT / "league" / "tournaments" / "logic.py"):
        top = name.split(".")[0]
        assert top in sys.stdlib_module_names or name == "__future__", name
