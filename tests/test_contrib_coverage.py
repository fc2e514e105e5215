"""The accumulator's coverage check fails for a schema with a SessionUpdate variant it does
not fold (``{package}/contrib.py``, ``runtime_tests/test_contrib.py``).

A fixture schema is the pinned one with one more ``SessionUpdate`` variant (``mood_update``,
built on an object of its own); the package generated from it must fail its runtime test
``test_the_accumulator_folds_every_session_update_variant_of_the_schema``, naming the
variant, while the package generated from the pinned schema passes it.
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


@pytest.mark.slow
def test_a_variant_the_accumulator_does_not_fold_fails_the_coverage_test(
    project_root: Path, inputs_copy: Path, tmp_path: Path
) -> None:
    pinned = _coverage_test(make_project(project_root, tmp_path / "pinned", inputs_copy))
    assert pinned.returncode == 0, pinned.stdout + pinned.stderr
    _add_variant(inputs_copy)
    grown = _coverage_test(make_project(project_root, tmp_path / "grown", inputs_copy))
    assert grown.returncode == 1, grown.stdout + grown.stderr
    assert "mood_update" in grown.stdout and "1 failed" in grown.stdout
