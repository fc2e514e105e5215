"""acpgen from a wheel, outside any checkout; a skeleton that stands alone; its CI workflow.

Everything runs offline in fresh venvs (tests/venv_support.py): the tool venv has only
acpgen's wheel installed on top of its dependencies; the user venv has no acpgen at all.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import HISTORY, PROJECT_ROOT
from venv_support import build_wheel, fresh_venv, offline_env, run, site_farm

# The whole module is slow: fresh virtualenvs, a wheel build and the skeleton's whole suite run in them.
pytestmark = pytest.mark.slow

PACKAGE = "mysdk"
# The replays run the skeleton's test step as written, minus the runtime's own suite
# (generated/runtime_tests: the SDK driving itself, independent of how acpgen was installed),
# which runs in full once, in the docs test of docs/runtime-and-skeleton.md (the same
# skeleton bytes: test_a_skeleton_from_the_wheel_equals_one_from_the_checkout).
SKIP_RUNTIME_SUITE = "--ignore=generated/runtime_tests"


@pytest.fixture(scope="module")
def farm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return site_farm(tmp_path_factory.mktemp("farm") / "site")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory, farm: Path, wheel: Path) -> dict[str, str]:
    """The environment of a venv where acpgen is installed from its wheel (not editable)."""
    bin_dir = fresh_venv(tmp_path_factory.mktemp("tool") / "venv", farm)
    env = offline_env(bin_dir)
    done = run([str(bin_dir / "python"), "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
               bin_dir, env)
    assert done.returncode == 0, done.stderr
    return env


@pytest.fixture(scope="module")
def user(tmp_path_factory: pytest.TempPathFactory, farm: Path) -> dict[str, str]:
    """The environment of a venv with the SDK's dependencies and no acpgen anywhere."""
    return offline_env(fresh_venv(tmp_path_factory.mktemp("user") / "venv", farm))


@pytest.fixture(scope="module")
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A working directory outside any acpgen project."""
    return tmp_path_factory.mktemp("outside")


@pytest.fixture(scope="module")
def skeleton(tool: dict[str, str], outside: Path) -> Path:
    """Made by the wheel from an unrelated directory, with no flags and no environment."""
    done = run(["acpgen", "skeleton", "--package", PACKAGE, "--out", "D"], outside, tool)
    assert done.returncode == 0, done.stderr
    return outside / "D"


def python(env: dict[str, str]) -> str:
    return str(Path(env["VIRTUAL_ENV"]) / "bin" / "python")


def test_the_wheel_runs_read_only_commands_outside_any_checkout(tool: dict[str, str], outside: Path) -> None:
    """No flags, no environment: the wheel carries the lock, the manifests and the inputs."""
    assert "ACPGEN_INPUTS" not in tool
    assert run(["acpgen", "--version"], outside, tool).returncode == 0
    done = run(["acpgen", "verify"], outside, tool)
    assert done.returncode == 0 and "240 requirements" in done.stdout, done.stderr
    done = run(["acpgen", "roster", "--role", "agent"], outside, tool)
    assert done.returncode == 0 and "of 240 requirements" in done.stderr, done.stderr
    done = run(["acpgen", "inspect", "--methods"], outside, tool)
    assert done.returncode == 0 and "session/prompt" in done.stdout, done.stderr
    old = outside / "old.json"
    shutil.copyfile(HISTORY / "schema-v1.21.0.json", old)
    new = outside / "new.json"
    shutil.copyfile(PROJECT_ROOT / "schema" / "inputs" / "schema" / "v1" / "schema.json", new)
    done = run(["acpgen", "diff", "old.json", "new.json"], outside, tool)
    assert done.returncode == 1 and "ToolCall" in done.stdout, done.stderr
    done = run(["acpgen", "diff", "new.json", "new.json"], outside, tool)
    assert done.returncode == 0, done.stdout + done.stderr
    # A command that writes into a project never falls back to the built-in project.
    done = run(["acpgen", "generate"], outside, tool)
    assert done.returncode == 2 and "no schema/acp.lock here" in done.stderr
    old.unlink()
    new.unlink()
    assert sorted(p.name for p in outside.iterdir() if p.name != "D") == []


def test_a_skeleton_from_the_wheel_equals_one_from_the_checkout(skeleton: Path, tmp_path: Path) -> None:
    from acpgen.load.project import load_project
    from acpgen.skeleton.create import build_skeleton

    here = build_skeleton(load_project(PROJECT_ROOT), tmp_path / "D", PACKAGE)
    made = {p.relative_to(skeleton).as_posix(): p.read_bytes()
            for p in sorted(skeleton.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}
    assert sorted(made) == sorted(here)
    assert [name for name in here if made[name] != here[name]] == []
    assert "generated/tests/test_conformance_agent.py" in made and "schema/conformance.toml" in made


def test_the_skeleton_tests_pass_without_acpgen_and_after_a_copy(
    skeleton: Path, user: dict[str, str], tool: dict[str, str], tmp_path: Path
) -> None:
    assert run([python(user), "-c", "import acpgen"], tmp_path, user).returncode == 1
    lock = (skeleton / "schema" / "acp.lock").read_text()
    assert 'inputs = "schema/inputs"' in lock
    copy = tmp_path / "elsewhere" / "at" / "another" / "depth"
    shutil.copytree(skeleton, copy)
    for root in (skeleton, copy):
        done = run([python(user), "-m", "pip", "install", "-q", "-e", ".[test]"], root, user)
        assert done.returncode == 0, done.stderr
        where = run([python(user), "-c", f"import {PACKAGE}; print({PACKAGE}.__file__)"], tmp_path, user)
        assert Path(where.stdout.strip()).is_relative_to(root / "generated"), where.stderr
    # The requirement tests, in the copy: the vendored plugin finds the roster without acpgen,
    # wherever the project lies. (The runtime's tests, which need neither, run in
    # test_skeleton.py and in the CI replay below.)
    # (--acp-coverage last: it takes an optional value, which a path after it would become.)
    done = run([python(user), "-m", "pytest", "-q", "generated/tests", "tests", "--acp-coverage"], copy, user)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "roster acp-v1-2797d331-r2: 240 requirements" in done.stdout
    # The vendored plugin validates markers without acpgen: a typo is a collection error.
    (copy / "tests" / "test_typo.py").write_text(
        "import pytest\n\n@pytest.mark.acp_requirement('ACP-V1-NO-SUCH-THING')\ndef test_x() -> None:\n    pass\n")
    done = run([python(user), "-m", "pytest", "-q", "tests/test_typo.py"], copy, user)
    assert done.returncode != 0 and "unknown ACP requirement ID 'ACP-V1-NO-SUCH-THING'" in done.stdout
    (copy / "tests" / "test_typo.py").unlink()
    # With acpgen installed, the copy is still current.
    done = run(["acpgen", "check"], copy, tool)
    assert done.returncode == 0, done.stdout + done.stderr


def _workflow_steps(path: Path) -> list[dict[str, object]]:
    workflow = yaml.safe_load(path.read_text())
    (job,) = workflow["jobs"].values()
    return list(job["steps"])


def test_the_ci_workflow_is_a_valid_github_workflow(skeleton: Path, tmp_path: Path) -> None:
    from check_jsonschema import main as check_jsonschema

    with pytest.raises(SystemExit) as done:
        check_jsonschema(["--builtin-schema", "vendor.github-workflows",
                          str(skeleton / ".github" / "workflows" / "ci.yml")])
    assert done.value.code == 0
    # The check is real: a workflow whose step has neither `run` nor `uses` is refused.
    broken = tmp_path / "ci.yml"
    broken.write_text((skeleton / ".github" / "workflows" / "ci.yml").read_text()
                      .replace("run: acpgen check", "with: {}"))
    with pytest.raises(SystemExit) as done:
        check_jsonschema(["--builtin-schema", "vendor.github-workflows", str(broken)])
    assert done.value.code == 1


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
    _run_steps(_readme_blocks(readme, "Regenerate"), root, ci)
    # The bump section names the new schema's place; the user puts a real release there.
    shutil.copyfile(HISTORY / "schema-v1-from-npm-sdk-2.0.0.json",
                    root / "schema" / "inputs" / "schema" / "v1" / "schema.next.json")
    (diff, bump) = _readme_blocks(readme, "Move to a new schema")[0].strip().splitlines()
    done = run(["bash", "-c", diff], root, ci)
    assert done.returncode == 1 and "DEF_ADDED" in done.stdout or "added" in done.stdout, done.stderr
    done = run(["bash", "-c", bump], root, ci)
    assert done.returncode == 1 and "bump applied" in done.stdout, done.stdout + done.stderr
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
