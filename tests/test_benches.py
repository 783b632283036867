"""Every bench measures what it says, or fails: each runs at its smallest size, exits 0 and says
how many items it measured; a bench that counted fewer than it set out to exits non-zero
(``bench/measured.py``) instead of printing "met" over nothing."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"


def _needs(*tools: str) -> pytest.MarkDecorator:
    missing = [t for t in tools if not shutil.which(t) and not Path(f"/usr/sbin/{t}").exists()]
    return pytest.mark.skipif(bool(missing), reason=f"needs {', '.join(missing)}")


needs_postgres = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="needs DATABASE_URL=postgres://... (the load benches make a scratch database)",
)

# bench -> its smallest run's arguments. Those that build a database, start servers or need a
# venv take 15 s or more at their smallest and are marked slow (run in CI with make test-slow).
SMALLEST = [
    pytest.param("ratings.py", ["--games", "200", "--runs", "1"], id="ratings"),
    pytest.param(
        "tournament_standings.py",
        ["--entrants", "4", "--runs", "2"],
        id="tstandings",
        marks=pytest.mark.slow,
    ),
    pytest.param("winprob.py", ["--games", "20"], id="winprob"),
    pytest.param("discard.py", ["--hands", "3"], id="discard"),
    pytest.param(
        "federation.py",
        ["--clubs", "6", "--nights", "2", "--events", "4", "--runs", "1"],
        id="federation",
        marks=pytest.mark.slow,
    ),
    pytest.param(
        "standings.py", ["--teams", "4", "--weeks", "1"], id="standings", marks=pytest.mark.slow
    ),
    pytest.param("import.py", ["--games", "8"], id="import", marks=pytest.mark.slow),
    pytest.param("scorer.py", ["--no-competitors", "--hands", "200", "--repeat", "1"], id="scorer"),
    pytest.param("deal_path.py", ["--deals", "2"], id="deal_path", marks=pytest.mark.slow),
    pytest.param(
        "pages.py",
        ["--teams", "4", "--weeks", "1", "--games", "1", "--repeat", "1"],
        id="pages",
        marks=pytest.mark.slow,
    ),
    pytest.param(
        "records.py",
        ["--seasons", "2", "--teams", "4", "--weeks", "1", "--games", "1", "--repeat", "1"],
        id="records",
        marks=pytest.mark.slow,
    ),
    pytest.param(
        "notify.py",
        ["--players", "8", "--wait", "60"],
        id="notify",
        marks=[pytest.mark.slow, _needs("redis-server")],
    ),
    pytest.param(
        "scorer_instructions.py",
        ["--hands", "50"],
        id="scorer_instructions",
        marks=[
            pytest.mark.slow,
            _needs("valgrind"),
            pytest.mark.skipif(
                not (BENCH / ".venv").exists(), reason="needs bench/.venv (bench/scorer.py)"
            ),
        ],
    ),
    pytest.param(
        "load.py",
        ["--tables", "2", "--runs", "1", "--scenario", "A", "--think", "0.5"],
        id="load",
        marks=[pytest.mark.slow, needs_postgres, _needs("wrk", "nginx", "redis-cli")],
    ),
    pytest.param(
        "tournament_load.py",
        ["--entrants", "4", "--runs", "1", "--spectators", "2"],
        id="tournament_load",
        marks=[pytest.mark.slow, needs_postgres, _needs("wrk", "nginx", "redis-cli")],
    ),
]


def test_every_bench_is_run_here_at_its_smallest_size():
    listed = {param.values[0] for param in SMALLEST}
    benches = {p.name for p in BENCH.glob("*.py") if p.name != "measured.py"}
    assert benches == listed


@pytest.mark.parametrize(("bench", "args"), SMALLEST)
def test_a_bench_at_its_smallest_size_exits_0_and_says_how_many_items_it_measured(
    bench, args, tmp_path
):
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "PYTEST_XDIST_WORKER"}}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    if not bench.endswith("load.py"):  # the others make their own database, or use this one
        env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'bench.sqlite3'}"
    run = subprocess.run(
        [sys.executable, str(BENCH / bench), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    said = run.stdout + run.stderr
    assert run.returncode == 0, said[-3000:]
    counts = re.findall(r"^measured: (\d+) ", run.stdout, flags=re.M)
    assert counts and all(int(n) > 0 for n in counts), said[-3000:]


def test_a_bench_that_measured_fewer_items_than_it_set_out_to_fails(capsys):
    spec = importlib.util.spec_from_file_location("bench_measured", BENCH / "measured.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.measured("mails", 1000, 1000)
    assert "measured: 1000 mails" in capsys.readouterr().out
    with pytest.raises(SystemExit) as failed:
        module.measured("mails", 0, 1000)
    assert failed.value.code == 1
    assert "MEASURED TOO FEW: 0 mails of the 1000" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        module.measured("matches", 0, 0)  # setting out to measure nothing measures nothing
