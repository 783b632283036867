"""The architecture as a test: which package may import which (docs/architecture.md draws it).

- ``scoring`` (the cribbage engine) imports the standard library only; ``contest`` (the
  competition maths) the standard library and ``scoring``.
- ``league`` never imports ``tournaments``; ``tournaments`` imports of the league only its named
  kernel, ``league.kernel``, and the tables both competitions share, ``league.shared``.
- The kernel imports of the apps only those shared tables (a player, the audit entry,
  deliveries and notification choices): never a league ``Game``, ``Season`` or ``Team``, the
  standings row, or a tournaments name. It asks each app through what the app registers.
- Models never import services, selectors, views or the API; selectors (reads) never import
  services (writes); services never import tasks, views or page rendering.
- No import cycle anywhere in our packages, and no test module imports another.

Every import counts, at the top of a module or inside a function.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("scoring", "contest", "league", "tournaments", "federation", "config")


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    package = ".".join(path.relative_to(ROOT).parent.parts)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # relative: resolve against the importing package
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def modules_of(*packages: str) -> dict[str, Path]:
    modules = {}
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    return modules


def under(name: str, *prefixes: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_the_scorer_uses_only_the_standard_library_and_itself():
    for name, path in modules_of("scoring").items():
        for imported in imports_of(path):
            top = imported.split(".")[0]
            assert top == "scoring" or top in sys.stdlib_module_names, f"{name} imports {imported}"


def test_the_contest_maths_use_only_the_standard_library_and_the_scorer():
    modules = modules_of("contest")
    assert modules, "contest/ holds the competition maths"
    for name, path in modules.items():
        for imported in imports_of(path):
            top = imported.split(".")[0]
            assert top in {"contest", "scoring", "__future__"} or top in sys.stdlib_module_names, (
                f"{name} imports {imported}"
            )


def test_the_league_never_imports_the_tournaments():
    for name, path in modules_of("league").items():
        for imported in imports_of(path):
            assert not under(imported, "tournaments"), f"{name} imports {imported}"


def test_the_tournaments_use_only_the_league_kernel_and_the_shared_tables():
    for name, path in modules_of("tournaments").items():
        for imported in imports_of(path):
            if under(imported, "league"):
                assert under(imported, "league.kernel", "league.shared"), (
                    f"{name} imports {imported}"
                )


def test_the_kernel_imports_of_the_apps_only_the_shared_tables():
    """A third competition registers with the kernel and edits no kernel module: the kernel
    reads no league Game, Season, Team or standings row, and no tournaments name."""
    from league import shared

    tables = {f"league.models.{name}" for name in shared.__all__}
    modules = {n: p for n, p in modules_of("league").items() if under(n, "league.kernel")}
    assert modules, "league/kernel/ holds the kernel"
    for name, path in modules.items():
        for imported in imports_of(path):
            assert not under(imported, "tournaments"), f"{name} imports {imported}"
            if under(imported, "league") and not under(imported, "league.kernel", "league.shared"):
                # ``from league.models import X`` lists league.models and league.models.X
                assert imported == "league.models" or imported in tables, (
                    f"{name} imports {imported}: the kernel may read only league.shared's tables"
                )


def test_the_league_and_the_tournaments_never_import_the_federation():
    for name, path in modules_of("league", "tournaments").items():
        for imported in imports_of(path):
            assert not under(imported, "federation"), f"{name} imports {imported}"


def test_the_federation_uses_the_kernel_the_maths_and_the_tournaments_public_reads():
    """Above the club: the league's kernel, the contest maths, and of the tournaments only
    their models and public selectors (never their services or views)."""
    modules = modules_of("federation")
    assert modules, "federation/ holds the layer above the club"
    for name, path in modules.items():
        for imported in imports_of(path):
            if under(imported, "league"):
                assert under(imported, "league.kernel"), f"{name} imports {imported}"
            if under(imported, "tournaments"):
                assert imported in {"tournaments.models", "tournaments.selectors"} or under(
                    imported, "tournaments.models", "tournaments.selectors"
                ), f"{name} imports {imported}"


def test_models_never_import_services_selectors_views_or_the_api():
    for app in ("league", "tournaments"):
        for name, path in modules_of(app).items():
            if not under(name, f"{app}.models"):
                continue
            for imported in imports_of(path):
                assert not any(
                    under(imported, f"{a}.{layer}")
                    for a in ("league", "tournaments")
                    for layer in ("services", "selectors", "views", "api")
                ), f"{name} imports {imported}"


def test_selectors_never_import_services():
    """Reads never call writes: a read that a write needs lives in a selector."""
    for name, path in modules_of("league", "tournaments").items():
        if not under(name, "league.selectors", "tournaments.selectors"):
            continue
        for imported in imports_of(path):
            assert not under(imported, "league.services", "tournaments.services"), (
                f"{name} imports {imported}"
            )


def test_services_never_import_tasks_views_or_page_rendering():
    """Services queue tasks by name after commit, and never draw pages: the arrows point from
    the doors (views, tasks) to the services, not back."""
    writers = [
        name
        for name in modules_of("league", "tournaments")
        if under(name, "league.services", "tournaments.services", "tournaments.archive")
        or under(name, "tournaments.demo", "tournaments.selectors")
    ]
    modules = modules_of("league", "tournaments")
    for name in writers:
        for imported in imports_of(modules[name]):
            assert not under(
                imported,
                "league.tasks",
                "league.rendering",
                "league.views",
                "tournaments.views",
                "tournaments.admin",
            ), f"{name} imports {imported}"
    for module in ("standings", "results"):  # the standings route: no way back to playoffs
        names = imports_of(ROOT / "league" / "services" / f"{module}.py")
        assert not any(under(n, "league.services.playoffs") for n in names), module


def test_the_doors_never_write_through_models_directly():
    """Writes go through services: no .save(), .create(, .update(, .delete() in the doors."""
    doors = [
        *(ROOT / "league" / "views").rglob("*.py"),
        *(ROOT / "league" / "api").rglob("*.py"),
        ROOT / "league" / "admin.py",
        ROOT / "league" / "tasks.py",
        *(ROOT / "tournaments" / "api").rglob("*.py"),
        *(ROOT / "tournaments" / "views").rglob("*.py"),
        *(ROOT / "tournaments" / "admin").rglob("*.py"),
        *(ROOT / "tournaments" / "management").rglob("*.py"),
        ROOT / "federation" / "views.py",
        ROOT / "federation" / "admin.py",
    ]
    for path in doors:
        text = path.read_text()
        for forbidden in (".objects.create(", ".save(", ".objects.update(", ".delete("):
            assert forbidden not in text, f"{path.relative_to(ROOT)} writes with {forbidden}"


def test_no_import_cycle():
    modules = modules_of(*PACKAGES)

    def target(imported: str) -> str | None:
        """The module an import names (``from a.b import c`` names a.b.c or a.b)."""
        while imported:
            if imported in modules:
                return imported
            imported = imported.rpartition(".")[0]
        return None

    graph = {
        name: {t for n in imports_of(path) if (t := target(n)) and t != name}
        for name, path in modules.items()
    }
    # A package's __init__ importing its own submodules is how a package re-exports: not a
    # cycle of dependencies between modules.
    for name in graph:
        graph[name] = {t for t in graph[name] if not under(t, name) or t == name}
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


def test_no_test_module_imports_another():
    """Shared test code lives in factories.py and the conftest fixtures, not in a test module."""
    for path in (ROOT / "tests").rglob("test_*.py"):
        for imported in imports_of(path):
            last = imported.split(".")
            assert not (
                last[0] == "tests" and any(part.startswith("test_") for part in last[1:])
            ), f"{path.relative_to(ROOT)} imports {imported}"
