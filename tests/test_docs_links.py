"""The README is the front door and `docs/` the house: every link inside them leads somewhere.

- every relative link of ``README.md`` and ``docs/**/*.md`` names a file or folder that exists,
  and its ``#anchor``, if any, a heading of that page (GitHub's slugs);
- every repository path a page names in inline code (`league/ranking.py`) exists, so a page
  cannot go on naming a module that moved;
- the README stays a front door: at most about 200 lines, the two commands in its first 30;
- every guide page is linked from the README and from ``docs/index.md``, and every document of
  ``docs/`` from the index;
- the operator's guide has a row for every environment variable the settings read.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
INDEX = DOCS / "index.md"
OPERATOR = DOCS / "guide" / "operator.md"

README_MAX_LINES = 200
COMMANDS_WITHIN = 30

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`[^`]*`")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = ("http://", "https://", "mailto:", "webcal://")


def documents() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def prose_lines(path: Path, *, keep_inline_code: bool = False) -> list[str]:
    """The lines of ``path`` outside code: fenced blocks, indented blocks and (unless kept, as a
    heading's anchor keeps it) inline code."""
    lines, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced or line.startswith("    "):
            continue
        lines.append(line if keep_inline_code else INLINE_CODE.sub("", line))
    return lines


def links_of(path: Path) -> list[str]:
    """Each link's target; a link's text may run over a line break."""
    return [m.group(1) for m in LINK.finditer("\n".join(prose_lines(path)))]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors = set()
    for line in prose_lines(path, keep_inline_code=True):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        anchors.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return anchors


def relative(path: Path) -> str:
    return path.resolve().relative_to(ROOT).as_posix()


def broken_links(path: Path) -> list[str]:
    broken = []
    for target in links_of(path):
        if target.startswith(EXTERNAL):
            continue
        file_part, _, anchor = target.partition("#")
        where = (path.parent / file_part).resolve() if file_part else path
        try:
            name = relative(where)
        except ValueError:
            broken.append(f"{target} (outside the repository)")
            continue
        if not where.exists():
            broken.append(f"{target} (no such file)")
            continue
        if anchor and where.suffix == ".md" and anchor not in anchors_of(where):
            broken.append(f"{target} (no heading #{anchor} in {name})")
    return broken


def test_the_check_reads_the_readme_and_every_page_of_docs():
    """A check that found no links would pass whatever the pages said."""
    names = {relative(p) for p in documents()}
    assert {"README.md", "docs/index.md", "docs/guide/operator.md"} <= names
    assert len(links_of(README)) >= 10
    assert slug("The week's story") == "the-weeks-story"
    assert slug("`scoring/` and `contest/`: pure code") == "scoring-and-contest-pure-code"


@pytest.mark.parametrize("page", documents(), ids=relative)
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page):
    assert not broken_links(page), f"{relative(page)} links to what is not there"


def test_the_readme_is_a_front_door_with_the_two_commands_first():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, (
        f"README.md has {len(lines)} lines: move the detail into docs/guide/"
    )
    opening = "\n".join(lines[:COMMANDS_WITHIN])
    assert "make demo" in opening and "make test" in opening


def test_every_guide_page_is_linked_from_the_readme_and_the_index():
    readme = {relative(README.parent / t.partition("#")[0]) for t in links_of(README)}
    index = {relative(INDEX.parent / t.partition("#")[0]) for t in links_of(INDEX)}
    guide = {relative(p) for p in (DOCS / "guide").glob("*.md")}
    assert guide, "docs/guide/ has no page"
    assert not guide - readme, "README.md does not link these guide pages"
    every_doc = {relative(p) for p in DOCS.rglob("*.md")} - {"docs/index.md"}
    assert not every_doc - index, "docs/index.md does not list these documents"


TOP_FOLDERS = (
    "scoring|contest|league|tournaments|config|templates|static|tests|bench|deploy|docs|locale"
)
CODE_PATH = re.compile(rf"`((?:{TOP_FOLDERS})/[A-Za-z0-9_./-]*)(?:::[A-Za-z_.]+)?`")


def code_paths(path: Path) -> list[str]:
    """The repository paths a page names in inline code (`league/ranking.py::chain`)."""
    found = []
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and not line.startswith("    "):
            found += CODE_PATH.findall(line)
    return found


def exists_in_repository(name: str) -> bool:
    """A file or folder, or a module's name dotted to one of its names (`league/x.helper`)."""
    if (ROOT / name).exists():
        return True
    module, dot, _ = name.rpartition(".")
    return bool(dot) and (ROOT / f"{module}.py").exists()


@pytest.mark.parametrize("page", documents(), ids=relative)
def test_every_file_a_page_names_in_code_exists(page):
    """A page that names a module moved or renamed since lags the code: say where it is now."""
    missing = [name for name in code_paths(page) if not exists_in_repository(name)]
    assert not missing, f"{relative(page)} names files that are not there: {missing}"


SETTING_READ = re.compile(
    r"(?:os\.environ\.get|env_bool|env_list|_int)\(\s*\"([A-Z][A-Z0-9_]+)\"", re.MULTILINE
)


def test_the_operators_guide_has_every_setting_the_code_reads_and_the_mail_backend():
    read = set()
    for source in ("config/settings.py", "deploy/gunicorn.conf.py"):
        read |= set(SETTING_READ.findall((ROOT / source).read_text(encoding="utf-8")))
    assert {"DATABASE_URL", "EMAIL_HOST", "PEGBOARD_TRUSTED_PROXIES", "WEB_CONCURRENCY"} <= read
    page = OPERATOR.read_text(encoding="utf-8")
    missing = sorted(name for name in read if f"`{name}`" not in page)
    assert not missing, f"docs/guide/operator.md names no {missing}"
    assert "`django.core.mail.backends.smtp.EmailBackend`" in page
