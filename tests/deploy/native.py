"""The shipped systemd units read as systemd would, to run their ExecStart lines here."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
UNITS = ROOT / "deploy" / "systemd"


@dataclass
class Unit:
    name: str
    exec_start: str
    working_directory: str
    environment: dict[str, str] = field(default_factory=dict)
    environment_files: list[str] = field(default_factory=list)
    options: dict[str, list[str]] = field(default_factory=dict)

    def argv(self, env: dict[str, str], paths: dict[str, str]) -> list[str]:
        """ExecStart split as systemd splits it, ``${VAR}`` from ``env``, the host's paths
        replaced by ``paths`` (a checkout elsewhere than /srv/pegboard, a scratch state dir)."""
        line = self.exec_start
        for host_path, here in paths.items():
            line = line.replace(host_path, here)
        line = re.sub(r"\$\{(\w+)\}", lambda m: env.get(m[1], self.environment.get(m[1], "")), line)
        return shlex.split(line.replace("%%", "%"))  # systemd's escape of a literal %


def read_unit(path: Path) -> Unit:
    options: dict[str, list[str]] = {}
    section = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        options.setdefault(f"{section}.{key}", []).append(value)
    environment = {}
    for assignment in options.get("Service.Environment", []):
        for item in shlex.split(assignment):
            name, _, value = item.partition("=")
            environment[name] = value
    (exec_start,) = options["Service.ExecStart"]
    (working_directory,) = options["Service.WorkingDirectory"]
    return Unit(
        name=path.stem,
        exec_start=exec_start,
        working_directory=working_directory,
        environment=environment,
        environment_files=options.get("Service.EnvironmentFile", []),
        options=options,
    )


def units() -> dict[str, Unit]:
    return {path.stem: read_unit(path) for path in sorted(UNITS.glob("*.service"))}
