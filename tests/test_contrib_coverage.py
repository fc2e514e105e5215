"""The accumulator takes a schema with a SessionUpdate variant it has no dedicated fold for
(``{package}/contrib.py``, ``runtime_tests/test_contrib.py``): a compatible schema bump adds
such variants, and the skeleton's CI must stay green.

A fixture schema is the pinned one with one more ``SessionUpdate`` variant (``mood_update``,
built on an object of its own); the package generated from it passes its runtime test
``test_the_accumulator_folds_every_session_update_variant_of_the_schema``, which applies the
new variant, finds it in ``SessionState.other`` (the generic fold) and names it in a warning.
The package generated from the pinned schema folds every variant its own way: acpgen's own
guard that the shipped accumulator keeps up with the schema acpgen pins (no warning).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_acpgen
from tests.repin import make_project

# The whole module is slow: it generates a tree from a fixture schema and runs its tests.
pytestmark = pytest.mark.slow

SCHEMA = "schema/v1/schema.json"
TEST = "runtime_tests/test_contrib.py::test_the_accumulator_folds_every_session_update_variant_of_the_schema"


def _add_variant(inputs: Path) -> None:
    path = inputs / SCHEMA
    schema = json.loads(path.read_text("utf-8"))
    defs = schema["$defs"]
    defs["MoodUpdate"] = {
        "type": "object",
        "properties": {"mood": {"type": "string"}},
        "required": ["mood"],
    }
    defs["SessionUpdate"]["oneOf"].append(
        {
            "type": "object",
            "properties": {"sessionUpdate": {"type": "string", "const": "mood_update"}},
            "required": ["sessionUpdate"],
            "allOf": [{"$ref": "#/$defs/MoodUpdate"}],
        }
    )
    path.write_text(json.dumps(schema, indent=2), encoding="utf-8")


def _coverage_test(proj: Path) -> subprocess.CompletedProcess[str]:
    result = run_acpgen("generate", "--project", str(proj))
    assert result.returncode == 0, result.stderr
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACPGEN_")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", TEST],
        cwd=proj / "generated", env=env, capture_output=True, text=True, timeout=300, check=False,
    )


def test_a_variant_the_accumulator_does_not_fold_takes_the_generic_fold(
    project_root: Path, inputs_copy: Path, tmp_path: Path
) -> None:
    pinned = _coverage_test(make_project(project_root, tmp_path / "pinned", inputs_copy))
    assert pinned.returncode == 0, pinned.stdout + pinned.stderr
    assert "generic way" not in pinned.stdout, pinned.stdout  # acpgen's pinned schema: all folded
    _add_variant(inputs_copy)
    grown = _coverage_test(make_project(project_root, tmp_path / "grown", inputs_copy))
    assert grown.returncode == 0, grown.stdout + grown.stderr
    assert "1 passed" in grown.stdout, grown.stdout
    assert "folded the generic way (SessionState.other): mood_update" in grown.stdout, grown.stdout
