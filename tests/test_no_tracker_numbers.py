"""The repository has no issue tracker, so no text may send a reader to one by number.

A comment, a docstring, a page or a bench note that says why by pointing at a tracker's number
tells a contributor nothing: each one names the capability instead ("the security review, L6",
"the deal path", "a season's life"). This walks every text file of the project (code, templates,
docs, catalogues, deploy files, benches) and fails on one that does.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The word, an optional space and "#", then a number, in any case (a tissue or an "issue's" is not).
TRACKER_NUMBER = re.compile(r"\bissue ?#?\d+", re.IGNORECASE)

SKIPPED_DIRS = {
    ".git",
    ".venv",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    "staticfiles",
    "artifacts",
    "build",
    "dist",
    "results",
}
TEXT_SUFFIXES = {
    ".py",
    ".md",
    ".html",
    ".txt",
    ".js",
    ".css",
    ".po",
    ".conf",
    ".toml",
    ".yml",
    ".yaml",
    ".cfg",
    ".ini",
    ".sh",
    ".json",
    ".webmanifest",
}
TEXT_NAMES = {"Makefile", "Dockerfile", "run", ".env.example", ".gitignore"}


def project_texts() -> list[Path]:
    found = []
    stack = [ROOT]
    while stack:
        folder = stack.pop()
        for path in folder.iterdir():
            if path.is_dir():
                if path.name not in SKIPPED_DIRS and not path.name.endswith(".egg-info"):
                    stack.append(path)
            elif path.suffix in TEXT_SUFFIXES or path.name in TEXT_NAMES:
                found.append(path)
    return sorted(found)


def test_the_walk_reads_the_readme_the_docs_and_the_code():
    """A walk that read nothing would pass whatever the files said."""
    names = {p.relative_to(ROOT).as_posix() for p in project_texts()}
    assert {"README.md", "docs/architecture.md", "config/settings.py", "Makefile"} <= names
    assert any(n.startswith("templates/") for n in names)
    assert any(n.startswith("locale/") for n in names)


def test_no_text_points_at_a_tracker_number_instead_of_naming_the_capability():
    offenders = []
    for path in project_texts():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if TRACKER_NUMBER.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not offenders, "name the capability instead of a tracker number:\n" + "\n".join(
        offenders
    )
