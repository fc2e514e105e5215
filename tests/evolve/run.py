"""Run ``acpgen diff`` in-process on two inputs directories, reduced to what the matrix checks."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tests.conftest import INPUTS


@dataclass(frozen=True)
class Outcome:
    exit: int
    client: str | None  # breaking if any change breaks a client; None when nothing changed
    agent: str | None
    at: tuple[tuple[str, str], ...]  # (JSON pointer, subject) of every reported change
    lines: tuple[str, ...]  # the changes, for failure messages


@cache
def pinned_side() -> Any:
    from acpgen.evolve.diff import load_side

    return load_side(str(INPUTS), None)


def write_inputs(root: Path, schema: bytes, meta: bytes) -> Path:
    (root / "schema" / "v1").mkdir(parents=True)
    (root / "schema" / "v1" / "schema.json").write_bytes(schema)
    (root / "schema" / "v1" / "meta.json").write_bytes(meta)
    return root


def diff_dirs(old: Any, new_dir: Path) -> Outcome:
    from acpgen.evolve.diff import diff_sides, load_side
    from acpgen.evolve.report import exit_code

    diff = diff_sides(old, load_side(str(new_dir), None, trusted=old))
    code = exit_code(diff)
    changes = diff.changes

    def side(role: str) -> str | None:
        if code == 0:
            return None
        for word in ("breaking", "unproven"):
            if any(getattr(c, role) == word for c in changes):
                return word
        return "compatible"

    return Outcome(
        exit=code,
        client=side("client"),
        agent=side("agent"),
        at=tuple((c.pointer, c.subject) for c in changes),
        lines=tuple(f"{c.kind} {c.describe()} client={c.client} agent={c.agent}" for c in changes),
    )
