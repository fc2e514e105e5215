"""The runtime's fault suite (``runtime_tests/test_faults.py``) on every generated package.

The tree ships the runtime tests once, for v1 stable (``generated/runtime_tests``, run in full
by a skeleton's CI, docs/runtime-and-skeleton.md). Here the same shipped tests run against
each other surface's package: a copy of them beside the tree, with the ``_package.py`` the
runtime emitter renders for that surface. The fault suite drives the package's example echo
agent over stdio (v2 ships its own, ``acpgen/shipped/runtime/examples_v2/echo_agent.py``)
and reads what the package declares (its ``InitializeRequest`` members, whether a
``PromptResponse`` has a stop reason), never its name.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from acpgen.emit import runtime as runtime_emitter
from acpgen.emit.shipped import RUNTIME_TESTS_DIR
from acpgen.load.project import load_project
from acpgen.model.generation import surface_models
from acpgen.output.generate import options_for
from tests.conftest import INPUTS, PROJECT_ROOT, generated_dir

pytestmark = pytest.mark.slow


def _package_module(package: str) -> str:
    project = load_project(PROJECT_ROOT)
    (model,) = [m for m in surface_models(project, options_for(project)) if m.options.package == package]
    return runtime_emitter.emit(model)[f"{RUNTIME_TESTS_DIR}/_package.py"]


@pytest.mark.parametrize("package", ["acp_v1_unstable", "acp_v2", "acp_v2_unstable"])
def test_the_fault_suite_passes_on_the_surface_package(package: str, tmp_path: Path) -> None:
    tree = generated_dir()
    suite = tmp_path / f"runtime_tests_{package}"
    shutil.copytree(tree / RUNTIME_TESTS_DIR, suite, ignore=shutil.ignore_patterns("__pycache__"))
    rendered = _package_module(package)
    assert f"import {package} as package" in rendered
    (suite / "_package.py").write_text(rendered, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = os.pathsep.join([str(tree), str(tmp_path)])
    env["ACPGEN_INPUTS"] = str(INPUTS)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), str(suite / "test_faults.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "skipped" not in done.stdout
