"""A skeleton's CI workflow replayed step by step in fresh offline venvs (split from
tests/test_standalone.py, whose wheel, venv and skeleton fixtures it shares, so that the two
long replays run beside the other standalone tests on another worker)."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
from conftest import HISTORY
from test_standalone import (  # noqa: F401  (fixtures: pytest finds them by name)
    PACKAGE,
    _workflow_steps,
    farm,
    outside,
    python,
    skeleton,
    tool,
    wheel,
)
from venv_support import fresh_venv, offline_env, run

# The whole module is slow: fresh virtualenvs and a skeleton's test suite in them.
pytestmark = pytest.mark.slow

# The replays run the skeleton's test step as written, minus the runtime's own suite
# (generated/runtime_tests: the SDK driving itself, independent of how acpgen was installed),
# which runs in full once, in the docs test of docs/runtime-and-skeleton.md (the same
# skeleton bytes: test_a_skeleton_from_the_wheel_equals_one_from_the_checkout).
SKIP_RUNTIME_SUITE = "--ignore=generated/runtime_tests"


def _run_steps(scripts: list[str], root: Path, env: dict[str, str]) -> None:
    for script in scripts:
        done = run(["bash", "-e", "-c", script], root, env)
        assert done.returncode == 0, f"{shlex.quote(script)}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"


def _readme_blocks(readme: str, heading: str) -> list[str]:
    """The ```sh blocks of one section of the skeleton's README, as a user copies them."""
    section = readme.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return [block.split("```", 1)[0] for block in section.split("```sh\n")[1:]]


def test_the_ci_steps_and_the_readme_run_as_written_in_a_fresh_venv(
    skeleton: Path, farm: Path, tmp_path: Path
) -> None:
    """The skeleton made by the wheel: every `run:` step of its workflow, in order, in a fresh
    venv with no acpgen, installing acpgen only from the wheel the skeleton carries; then the
    README's regenerate and schema-bump steps exactly as written."""
    root = tmp_path / "sdk"
    shutil.copytree(skeleton, root)
    ci = offline_env(fresh_venv(tmp_path / "ci-venv", farm))
    steps = _workflow_steps(root / ".github" / "workflows" / "ci.yml")
    uses = [s["uses"] for s in steps if "uses" in s]
    assert [u.split("@")[0] for u in uses] == ["actions/checkout", "actions/setup-python"]
    runs = [str(s["run"]) for s in steps if "run" in s]
    (wheel,) = (root / "vendor").glob("acpgen-*.whl")
    assert runs[0].split() == ["python", "-m", "pip", "install", f"./vendor/{wheel.name}",
                               "python", "-m", "pip", "install", "-e", '".[test]"']
    assert run([python(ci), "-c", "import acpgen"], root, ci).returncode == 1
    ci["PYTEST_ADDOPTS"] = SKIP_RUNTIME_SUITE
    _run_steps(runs, root, ci)
    assert (root / "acp-coverage.json").is_file()
    where = run([python(ci), "-c", "import acpgen; print(acpgen.__file__)"], root, ci)
    assert Path(where.stdout.strip()).is_relative_to(Path(ci["VIRTUAL_ENV"])), where.stderr
    readme = (root / "README.md").read_text()
    # The README's first steps: a virtual environment of the project's own, then the install.
    first = _readme_blocks(readme, "Use")[0].splitlines()
    assert first[0].startswith("python3 -m venv .venv && . .venv/bin/activate"), first
    own = {**ci, "PYTHONPATH": str(farm)}  # offline: the new venv sees the farm's packages
    _run_steps(["\n".join(first[:2]) + f"\npython -c 'import {PACKAGE}'"], root, own)
    shutil.rmtree(root / ".venv")
    _run_steps(_readme_blocks(readme, "Regenerate"), root, ci)
    # The bump section names the new schema's place; the user puts a real release there.
    shutil.copyfile(HISTORY / "schema-v1-from-npm-sdk-2.0.0.json",
                    root / "schema" / "inputs" / "schema" / "v1" / "schema.next.json")
    (diff, bump) = _readme_blocks(readme, "Move to a new schema")[0].strip().splitlines()
    done = run(["bash", "-c", diff], root, ci)
    assert done.returncode == 1 and "DEF_ADDED" in done.stdout or "added" in done.stdout, done.stderr
    done = run(["bash", "-c", bump], root, ci)
    assert done.returncode == 0 and "bump applied" in done.stdout, done.stdout + done.stderr
    _run_steps(["acpgen check"], root, ci)


def test_the_ci_steps_run_locally_in_order(
    tool: dict[str, str], outside: Path, inputs_dir: Path, wheel: Path, farm: Path, tmp_path: Path
) -> None:
    """A skeleton whose CI installs acpgen from a direct reference (the wheel): every `run:`
    step of its workflow, in order, in a fresh venv with no acpgen; only the checkout and
    setup-python actions are skipped."""
    spec = f"acpgen @ {wheel.as_uri()}"
    done = run(["acpgen", "skeleton", "--package", PACKAGE, "--out", str(tmp_path / "sdk"),
                "--inputs", str(inputs_dir), "--acpgen-requirement", spec], outside, tool)
    assert done.returncode == 0, done.stderr
    root = tmp_path / "sdk"
    pyproject = (root / "pyproject.toml").read_text()
    assert f'"{spec}"' in pyproject and "allow-direct-references = true" in pyproject
    ci = offline_env(fresh_venv(tmp_path / "ci-venv", farm))
    ci["PATH"] = f"{Path(ci['VIRTUAL_ENV']) / 'bin'}:{ci['PATH']}"
    steps = _workflow_steps(root / ".github" / "workflows" / "ci.yml")
    uses = [s["uses"] for s in steps if "uses" in s]
    assert [u.split("@")[0] for u in uses] == ["actions/checkout", "actions/setup-python"]
    runs = [str(s["run"]) for s in steps if "run" in s]
    assert [r.strip().splitlines()[-1] for r in runs] == [
        'python -m pip install -e ".[test,dev]"', "acpgen check", "python -m pytest --acp-coverage"]
    assert run([python(ci), "-c", "import acpgen"], root, ci).returncode == 1
    ci["PYTEST_ADDOPTS"] = SKIP_RUNTIME_SUITE
    for script in runs:
        done = run(["bash", "-e", "-c", script], root, ci)
        assert done.returncode == 0, f"{shlex.quote(script)}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
    assert (root / "acp-coverage.json").is_file()
