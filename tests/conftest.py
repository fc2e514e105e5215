"""Shared fixtures: the real project, the real pinned inputs, and a CLI runner."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[1]
INPUTS = Path(os.environ.get("ACPGEN_INPUTS", PROJECT_ROOT.parent / "shared" / "acp")).resolve()


@pytest.fixture(scope="session")
def project_root() -> Path:
    return PROJECT_ROOT


@pytest.fixture(scope="session")
def inputs_dir() -> Path:
    if not (INPUTS / "schema" / "v1" / "schema.json").is_file():
        pytest.fail(f"pinned inputs not found at {INPUTS} (set ACPGEN_INPUTS)")
    return INPUTS


@pytest.fixture(scope="session")
def project(inputs_dir: Path):  # type: ignore[no-untyped-def]
    from acpgen.model.project import load_project

    return load_project(PROJECT_ROOT, str(inputs_dir))


@pytest.fixture()
def inputs_copy(tmp_path: Path, inputs_dir: Path) -> Path:
    """A writable copy of the pinned inputs (schema, meta, roster only) to break on purpose."""
    dest = tmp_path / "inputs"
    for rel in ("schema/v1/schema.json", "schema/v1/meta.json", "roster/requirements.md"):
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(inputs_dir / rel, dest / rel)
    return dest


def run_acpgen(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
               timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in a subprocess (exit codes and stderr as a user sees them)."""
    full_env = {k: v for k, v in os.environ.items() if k != "ACPGEN_INPUTS"}
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "acpgen", *args],
        cwd=cwd or PROJECT_ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def tree_digest(root: Path) -> dict[str, bytes]:
    """Every file under root with its bytes (to prove nothing was written)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }
