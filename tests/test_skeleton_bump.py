"""A compatible schema bump keeps a skeleton's CI green (issue 36).

A fresh skeleton (the session's, copied) is bumped through every real v1 schema newer than
the pinned one that the project carries, in release order: the TypeScript SDK's bundled
schemas (tests/data/history/, 2.0.0 then 2.4.0) and any release under tests/data/releases/
whose tag is newer than the pinned schema's (the lock's upstream tag). After each bump the
skeleton's whole CI runs as its workflow says (`acpgen check`, then `python -m pytest
--acp-coverage`), and the bump left the inputs as a person would: the pinned name kept, the
file given to --schema gone, PROVENANCE.md describing the new bytes, the SDK's version raised
and a CHANGELOG.md entry written.

Bounded: one skeleton, one CI run per schema (about 50 s each on 2 cores); listed early in
tests/conftest.py LONGEST_FIRST so it overlaps the other long modules.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import HISTORY, PROJECT_ROOT, run_acpgen
from test_skeleton_support import skeleton_env

from acpgen.evolve.semver import parse_version
from acpgen.inputs.lock import load_lock

pytestmark = pytest.mark.slow

RELEASES = PROJECT_ROOT / "tests" / "data" / "releases"
NEXT = "schema/inputs/schema/v1/schema.next.json"


def newer_schemas() -> list[Path]:
    """Every real v1 schema the project carries that is newer than the pinned one."""
    pinned = parse_version(load_lock(PROJECT_ROOT).files["schema"].upstream.get("tag"))
    assert pinned is not None, "the lock records the pinned schema's release tag"
    index = json.loads((RELEASES / "index.json").read_text(encoding="utf-8"))
    newer = [RELEASES / index["releases"][t]["schema"] for t in index["order"]
             if (v := parse_version(t)) is not None and v.key() > pinned.key() and v.major == 1]
    return [HISTORY / "schema-v1-from-npm-sdk-2.0.0.json",
            HISTORY / "schema-v1-from-npm-sdk-2.4.0.json", *newer]


def _ci(root: Path) -> None:
    done = run_acpgen("check", cwd=root)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    env = {k: v for k, v in skeleton_env(root).items() if not k.startswith(("ACPGEN_", "PYTEST_"))}
    # The workflow's test step as written (the outer run already spreads modules over workers).
    run = subprocess.run([sys.executable, "-m", "pytest", "--acp-coverage", "-q", "-p", "no:randomly"],
                         cwd=root, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " failed" not in run.stdout.splitlines()[-1], run.stdout[-2000:]


def test_a_fresh_skeleton_stays_green_through_every_newer_schema(skeleton: Path, tmp_path: Path) -> None:
    root = tmp_path / "sdk"
    shutil.copytree(skeleton, root)
    version = tomllib.loads((root / "pyproject.toml").read_text())["project"]["version"]
    schemas = newer_schemas()
    assert len(schemas) >= 2
    for number, schema in enumerate(schemas, start=1):
        shutil.copyfile(schema, root / NEXT)
        done = run_acpgen("bump", "--schema", NEXT, "--accept-roster-mismatch", cwd=root, timeout=600)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr  # applied: exit 0
        assert "bump applied" in done.stdout or "already up to date" in done.stdout, done.stdout
        # The inputs as a person leaves them: the pinned name holds the new bytes.
        pinned = root / "schema" / "inputs" / "schema" / "v1" / "schema.json"
        assert pinned.read_bytes() == schema.read_bytes() and not (root / NEXT).exists()
        sha = hashlib.sha256(schema.read_bytes()).hexdigest()
        provenance = (root / "schema" / "inputs" / "PROVENANCE.md").read_text()
        assert f"| schema/v1/schema.json | {sha} | {len(schema.read_bytes())} | commit: unknown;" in provenance
        _ci(root)
        if "bump applied" in done.stdout:
            new = tomllib.loads((root / "pyproject.toml").read_text())["project"]["version"]
            old_v, new_v = parse_version(version), parse_version(new)
            assert old_v is not None and new_v is not None and new_v.key() > old_v.key(), (version, new)
            changelog = (root / "CHANGELOG.md").read_text()
            assert changelog.startswith("# Changelog\n") and "Keep a Changelog" in changelog
            assert changelog.count("\n## [") == number and f"\n## [{new}] - " in changelog
            version = new
