"""The generator's own code passes its linters: ruff on everything, mypy on acpgen/.

(The generated code has its own mypy --strict / ruff tests next to each emitter's tests.)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, check=False)


def test_ruff_passes_on_the_generator_tests_and_benchmarks(project_root: Path) -> None:
    result = _run("ruff", "check", "--no-cache", "acpgen", "tests", "bench", cwd=project_root)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_passes_on_the_generator(project_root: Path, tmp_path: Path) -> None:
    result = _run("mypy", "--ignore-missing-imports", "--cache-dir", str(tmp_path / "mypy"),
                  "acpgen", cwd=project_root)
    assert result.returncode == 0, result.stdout + result.stderr
