"""``acpgen skeleton``: a new SDK project that installs, tests itself and keeps regenerating."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path
from typing import Any

import pytest
from conftest import run_acpgen, tree_digest
from test_skeleton_support import SKELETON_PACKAGE

from acpgen.errors import AcpgenError
from acpgen.inputs.lock import load_lock
from acpgen.output.generate import MANIFEST_NAME
from acpgen.skeleton.create import SKELETON_TEMPLATES, skeleton_project

PACKAGE = SKELETON_PACKAGE


def test_the_skeleton_has_its_project_files(skeleton: Path) -> None:
    for rel in SKELETON_TEMPLATES:
        assert (skeleton / rel).is_file(), rel
    for rel in ("schema/acp.lock", "schema/capabilities.toml", f"generated/{MANIFEST_NAME}"):
        assert (skeleton / rel).is_file(), rel
    package = skeleton / "generated" / PACKAGE
    for module in ("models", "schema", "methods", "guards", "rpc", "transports/stdio", "handshake",
                   "interfaces", "connection", "examples/echo_agent", "examples/client", "transport",
                   "remote", "transports/http/server", "transports/ws/client"):
        assert (package / f"{module}.py").is_file(), module
    assert list((skeleton / "generated" / "runtime_tests").glob("test_*.py"))
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load((skeleton / ".github/workflows/ci.yml").read_text())
    runs = [step.get("run", "") for job in workflow["jobs"].values() for step in job["steps"]]
    assert "acpgen check" in runs
    assert any("pytest" in run for run in runs[runs.index("acpgen check"):])
    pyproject = (skeleton / "pyproject.toml").read_text()
    assert f'packages = ["generated/{PACKAGE}"]' in pyproject
    # The remote transports' libraries are an extra of their own, not a dependency.
    extras = tomllib.loads(pyproject)["project"]["optional-dependencies"]
    remote = {re.split(r"[\[<>=]", spec)[0] for spec in extras["remote"]}
    assert remote == {"starlette", "hypercorn", "websockets", "httpx2"}
    assert not remote & {re.split(r"[<>=]", d)[0] for d in tomllib.loads(pyproject)["project"]["dependencies"]}


def test_the_skeleton_lock_pins_the_same_inputs(skeleton: Path, project: Any, inputs_dir: Path,
                                                tmp_path: Path) -> None:
    # A skeleton builds v1 stable unless told other surfaces (--surface): its pins are v1's.
    stable = {n: f for n, f in project.lock.files.items() if n in ("schema", "meta", "roster")}
    pins = {n: f.sha256 for n, f in stable.items()}
    lock = load_lock(skeleton)
    assert (lock.package, lock.out, lock.tests_dir) == (PACKAGE, "generated", "tests")
    assert {n: f.sha256 for n, f in lock.files.items()} == pins
    assert lock.surfaces == {}
    assert lock.inputs == "schema/inputs"
    for name, pinned in stable.items():
        assert (skeleton / lock.inputs / pinned.path).read_bytes() == project.inputs.data[name]
    # The inputs' licence travels with them, and a provenance note names every pinned file.
    licence = (inputs_dir / "LICENSE-agent-client-protocol").read_bytes()
    assert (skeleton / lock.inputs / "LICENSE-agent-client-protocol").read_bytes() == licence
    provenance = (skeleton / lock.inputs / "PROVENANCE.md").read_text()
    for pinned in stable.values():
        assert f"| {pinned.path} | {pinned.sha256} | {pinned.size} |" in provenance
    assert "LICENSE-agent-client-protocol" in provenance
    # With --reference-inputs: the same pins, the inputs found by their absolute path (a
    # relative one between two resolved trees breaks as soon as the skeleton moves).
    root = tmp_path / "some" / "where" / "sdk"
    lock = skeleton_project(project, root, PACKAGE, vendor_inputs=False).lock
    assert {n: f.sha256 for n, f in lock.files.items()} == pins
    assert Path(lock.inputs) == inputs_dir.resolve()
    gating = (project.root / "schema" / "capabilities.toml").read_bytes()
    assert (skeleton / "schema" / "capabilities.toml").read_bytes() == gating


@pytest.mark.slow
def test_check_and_generate_work_inside_the_skeleton(skeleton: Path, tmp_path: Path) -> None:
    # Moved elsewhere, at another depth: the vendored inputs travel with the project.
    work = tmp_path / "elsewhere" / "deeper" / "sdk"
    shutil.copytree(skeleton, work)
    done = run_acpgen("check", cwd=work)
    assert done.returncode == 0, done.stderr + done.stdout
    before = tree_digest(work)
    done = run_acpgen("generate", cwd=work)
    assert done.returncode == 0, done.stderr
    assert tree_digest(work) == before
    # A hand edit of the generated runtime is drift that the skeleton's CI would catch.
    rpc = work / "generated" / PACKAGE / "rpc.py"
    rpc.write_text(rpc.read_text() + "# edited\n")
    models = work / "generated" / PACKAGE / "models.py"
    models.write_text(models.read_text() + "# edited\n")
    done = run_acpgen("check", cwd=work)
    assert done.returncode == 1
    out = done.stderr + done.stdout
    assert f"{PACKAGE}/rpc.py" in out
    # The skeleton has no acpgen sources: the fix says what its author can do, and names no
    # path of acpgen's own repository (templates/models/models.py.jinja, acpgen/shipped/...).
    fix = [line for line in out.splitlines() if line.startswith("fix:")]
    assert fix and not any("templates/" in line or "acpgen/shipped/" in line for line in fix), fix
    assert any(f"{PACKAGE}/models.py, {PACKAGE}/rpc.py: made by the installed acpgen" in line
               and "keep your code in modules of your own" in line
               and "`acpgen bump --schema FILE`" in line for line in fix), fix
    assert json.loads(run_acpgen("check", "--json", cwd=work).stdout)["sources_in_project"] is False


@pytest.mark.slow
@pytest.mark.parametrize(("name", "problem"), [
    ("My-SDK", "is not a Python identifier"),
    ("Foo-Bar", "is not a Python identifier"),
    ("1sdk", "is not a Python identifier"),
    ("class", "is a Python keyword"),
    ("match", "is a Python keyword"),
    ("MySDK", "is not lowercase"),
    ("json", "is a standard-library module"),
    ("asyncio", "is a standard-library module"),
    ("pydantic", "is the import name of a dependency"),
    ("jinja2", "is the import name of a dependency"),
    ("black", "is the import name of a dependency"),
    ("click", "is the import name of a dependency"),
    ("acp_requirements", "is the import name of a dependency"),
    ("tests", "is the generated tests directory's name"),
])
def test_a_bad_package_name_is_refused_and_nothing_is_written(tmp_path: Path, name: str,
                                                              problem: str) -> None:
    out = tmp_path / "sdk"
    done = run_acpgen("skeleton", "--package", name, "--out", str(out))
    assert done.returncode == 2
    assert done.stderr.startswith(f"acpgen: error: --package: {name!r} {problem}")
    assert len(done.stderr.splitlines()) == 1
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_non_empty_out_dir_is_refused_and_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "sdk"
    out.mkdir()
    (out / "mine.txt").write_text("keep me")
    done = run_acpgen("skeleton", "--package", PACKAGE, "--out", str(out))
    assert done.returncode == 2 and "not empty" in done.stderr
    assert tree_digest(out) == {"mine.txt": b"keep me"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sdk"]


@pytest.mark.slow
def test_the_skeleton_installs_in_a_fresh_venv_and_its_installed_copy_runs(skeleton: Path, tmp_path: Path) -> None:
    """Offline: a venv without pip that sees this venv's site-packages (pip, hatchling,
    pydantic, pytest, acpgen); the skeleton is built and installed with its own backend."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    here = sysconfig.get_paths()["purelib"]
    (Path(site) / "_outer_venv.pth").write_text(f"import site; site.addsitedir({here!r})\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ACPGEN_INPUTS")}
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index", str(skeleton)],
        capture_output=True, text=True, timeout=300, env=env, check=False,
    )
    assert done.returncode == 0, done.stderr
    where = subprocess.run([str(python), "-c", f"import {PACKAGE}; print({PACKAGE}.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120, check=False)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(venv)  # the installed copy, not the source
    # The installed package drives itself: its example client runs its echo agent (the
    # runtime's whole test suite runs in the docs test of docs/runtime-and-skeleton.md).
    module = [str(python), "-m"]
    done = subprocess.run([*module, f"{PACKAGE}.examples.client", "--prompt", "hi there", "--",
                           *module, f"{PACKAGE}.examples.echo_agent"],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "hi there" in done.stdout and "[stop reason: end_turn]" in done.stdout


def test_the_skeleton_project_keeps_the_surfaces_as_records_and_its_own_root(project: Any, tmp_path: Path) -> None:
    """--surface names pick records of the table (in the project's order, whatever the order
    given); the skeleton is a project rooted where it goes, with no root swapped back."""
    root = tmp_path / "sdk"
    skeleton = skeleton_project(project, root, "mysdk", True, ["v2", "v1-unstable", "v1"])
    assert [(s.name, s.package) for s in skeleton.surfaces] == [
        ("v1", "mysdk"), ("v1-unstable", "mysdk_v1_unstable"), ("v2", "mysdk_v2")]
    assert skeleton.root == root and skeleton.lock.surfaces == {"v1-unstable": "mysdk_v1_unstable", "v2": "mysdk_v2"}
    assert set(skeleton.lock.files) == {"schema", "meta", "roster", "schema-v1-unstable", "meta-v1-unstable",
                                        "schema-v2", "meta-v2"}
    assert [s.spec for s in skeleton.surfaces] == list(skeleton.lock.surface_table)
    with pytest.raises(AcpgenError, match=r"--surface: 'v3' is not a surface this project pins \(choose from v1, "):
        skeleton_project(project, root, "mysdk", True, ["v3"])
