"""acpgen from a wheel, outside any checkout; a skeleton that stands alone; its CI workflow.

Everything runs offline in fresh venvs (tests/venv_support.py): the tool venv has only
acpgen's wheel installed on top of its dependencies; the user venv has no acpgen at all.
"""

from __future__ import annotations

import re
import shutil
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from conftest import HISTORY, PROJECT_ROOT
from venv_support import build_wheel, fresh_venv, offline_env, run, site_farm

# The whole module is slow: fresh virtualenvs, a wheel build and the skeleton's whole suite run in them.
pytestmark = pytest.mark.slow

PACKAGE = "mysdk"


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


NODE_AGENT = PROJECT_ROOT / "tests" / "support" / "node_agent.mjs"


def _observable_by_an_agent() -> set[str]:
    rows = tomllib.loads((PROJECT_ROOT / "schema" / "conformance.toml").read_text(encoding="utf-8"))
    return {r["id"] for r in rows["requirement"] if r["observable"] in ("agent", "both")}


def test_the_wheel_checks_an_agent_in_another_language_from_an_empty_directory(
        tool: dict[str, str], tmp_path: Path) -> None:
    """Issue 43's proof: acpgen from its wheel, an empty directory, no flags but the agent's
    command (a Node.js agent, tests/support/node_agent.mjs), and a JUnit file that lists each
    requirement the kit judges against an agent, as schema/conformance.toml classifies them."""
    node = shutil.which("node", path=tool["PATH"])
    if node is None:
        pytest.skip("Node.js is not installed (node not on PATH): the agent under test is a Node.js program")
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {k: v for k, v in tool.items() if not k.startswith("PYTEST_")}  # not this suite's pytest
    done = run(["acpgen", "conformance", "--agent", f"{node} {NODE_AGENT}", "--junit", "out.xml"],
               empty, env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "acpgen conformance: conformant at MUST level" in done.stdout
    root = ET.parse(empty / "out.xml").getroot()
    listed = [c.get("name", "").split(" ")[0] for c in root.iter("testcase")]
    requirements = [name for name in listed if name.startswith("ACP-V1-")]
    assert sorted(requirements) == sorted(_observable_by_an_agent())  # each once
    assert sorted(p.name for p in empty.iterdir()) == ["out.xml"]  # nothing else left behind


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
    # The vendored plugin's last line explains the skips: the stubs, and the kit's tests waiting
    # for a peer (with the commands that run them).
    last, stats = done.stdout.strip().splitlines()[-2:]
    skipped = re.search(r"(\d+) skipped", stats)
    assert skipped and last.startswith(f"acp: {skipped[1]} skipped: "), done.stdout[-2000:]
    assert re.search(r": \d+ requirement stubs .*, \d+ conformance-kit tests waiting for a peer under test "
                     r'\(run them: pytest generated/tests/test_conformance_agent.py --acp-agent="CMD"; '
                     r'pytest generated/tests/test_conformance_client.py --acp-client="CMD ... \{agent\}"\)'
                     r"(, \d+ other \(-rs lists why\))?$", last), last
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
