"""Shared fixtures: the real project, the real pinned inputs, a CLI runner, and a tree
generated now (into a temporary directory) for the tests of generated code.

Tests of generated code import from :func:`generated_dir`, which this checkout's generator
writes once per test process: a template change is tested without regenerating, and
``pytest tests`` passes with the committed ``generated/`` deleted. Only the tests of
``acpgen check`` (and of commands that must leave a tree alone) look at a committed tree;
``tests/test_hygiene.py`` enforces that.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# A loaded machine is slow, not wrong: no property test is held to a time (deadline) or fails
# because generating its examples was slow (too_slow). Each test's own @settings add to this.
settings.register_profile("acpgen", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("acpgen")

PROJECT_ROOT = Path(__file__).resolve().parents[1]
# The pinned inputs the project carries (schema/acp.lock's `inputs`); never the caller's
# $ACPGEN_INPUTS, so that the suite tests the same bytes wherever it runs.
INPUTS = (PROJECT_ROOT / "schema" / "inputs").resolve()
# Older and newer real schemas for the bump and diff tests (tests/data/history/PROVENANCE.md).
HISTORY = PROJECT_ROOT / "tests" / "data" / "history"
# Real-shaped ACP messages, one typed object per file (tests/data/messages/README.md).
MESSAGES = PROJECT_ROOT / "tests" / "data" / "messages"
# The editable install puts the committed generated/ on sys.path (so a user can `import
# acp_v1` after the quick start). The suite tests what this checkout generates now, never the
# committed copy: drop it before anything imports the package.
sys.path[:] = [p for p in sys.path if not p or Path(p).resolve() != PROJECT_ROOT / "generated"]
# The caller's environment must not change what the suite tests: acpgen reads $ACPGEN_INPUTS,
# $ACPGEN_CACHE_DIR, $ACPGEN_NO_CACHE, $ACPGEN_TEMPLATES, ... Cleared here, at import, before
# any test or fixture runs (a test that needs one sets it itself, with monkeypatch). Only
# ACPGEN_TEST_TREE, the suite's own hook (generated_dir), is kept.
for _name in [n for n in os.environ if n.startswith("ACPGEN_") and n != "ACPGEN_TEST_TREE"]:
    del os.environ[_name]
# Bytecode caching on, whatever the caller's $PYTHONDONTWRITEBYTECODE: the suite starts
# hundreds of interpreters (agents, clients, the CLI) that import the same generated package
# and acpgen itself; without .pyc files each one compiles them again (a tenth of a second of
# CPU per `import acp_v1`). The caches land in ignored __pycache__ folders.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
_SESSION: dict[str, Any] = {}  # built once per test process: the project, its tree, its directory


def load_real_project() -> Any:
    """The real project on the pinned inputs, loaded once per test process."""
    if "project" not in _SESSION:
        from acpgen.load.project import load_project

        _SESSION["project"] = load_project(PROJECT_ROOT, str(INPUTS))
    return _SESSION["project"]


def tree_now() -> dict[str, bytes]:
    """What this checkout's generator produces now from the pinned inputs (built once)."""
    if "tree" not in _SESSION:
        from acpgen.output.generate import build_tree, options_for

        project = load_real_project()
        with _one_builder_at_a_time():
            _SESSION["tree"] = build_tree(project, options_for(project))
    return dict(_SESSION["tree"])


@contextlib.contextmanager
def _one_builder_at_a_time() -> Iterator[None]:
    """The test workers (pytest -n) build their session trees one after another: the first
    builds cold and fills acpgen's cache, the next finds the tree there (the same bytes,
    memoised by content) instead of spending the same CPU at the same time."""
    from acpgen import disk_cache

    where = disk_cache.cache_dir()
    if where is None:
        yield
        return
    where.parent.mkdir(parents=True, exist_ok=True)
    with open(where.parent / "tests-build.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def single_surface_project() -> Path:
    """A throw-away project of the v1 stable surface alone (made once per test process): the
    real schema/ and templates/, the lock without its ``[generate.surfaces]`` table.

    Tests of what ``generate`` and ``check`` do with *a* tree (drift diagnoses, atomic
    writes, caches, determinism) run on it: every surface goes through the same code, and
    one surface costs a fifth of four. The surfaces themselves: tests/test_surfaces.py.
    Tests copy it (:func:`copy_single_surface_project`), never change it."""
    if "single" not in _SESSION:
        root = Path(tempfile.mkdtemp(prefix="acpgen-single-"))
        atexit.register(shutil.rmtree, root, True)
        shutil.copytree(PROJECT_ROOT / "schema", root / "schema")
        shutil.copytree(PROJECT_ROOT / "templates", root / "templates")
        lock = root / "schema" / "acp.lock"
        text = lock.read_text(encoding="utf-8")
        start = text.index("[generate.surfaces]\n")
        end = text.index("\n\n", start) + 2
        lock.write_text(text[:start] + text[end:], encoding="utf-8")
        _SESSION["single"] = root
    path: Path = _SESSION["single"]
    return path


def single_surface() -> tuple[Any, dict[str, bytes]]:
    """The :func:`single_surface_project` loaded, and the tree it generates (built once)."""
    if "single_tree" not in _SESSION:
        from acpgen.load.project import load_project
        from acpgen.output.generate import build_tree, options_for

        project = load_project(single_surface_project(), str(INPUTS))
        assert project.lock.surfaces == {}, "the single-surface lock still lists surfaces"
        with _one_builder_at_a_time():
            _SESSION["single_tree"] = (project, build_tree(project, options_for(project)))
    project, tree = _SESSION["single_tree"]
    return project, dict(tree)


def copy_single_surface_project(dest: Path, tree: dict[str, bytes] | None = None) -> Path:
    """A writable copy of :func:`single_surface_project` at ``dest``, with ``tree`` (by default
    the tree it generates) as its generated/."""
    from acpgen.output.writer import write_tree

    source = single_surface_project()
    shutil.copytree(source / "schema", dest / "schema")
    shutil.copytree(source / "templates", dest / "templates")
    write_tree(dest / "generated", single_surface()[1] if tree is None else tree)
    return dest


def generated_dir() -> Path:
    """:func:`tree_now` written to a temporary ``generated/`` (once per process), on
    ``sys.path`` so that ``import acp_v1`` finds it. Tests must not change it (copy it).

    ``ACPGEN_TEST_TREE=DIR`` uses DIR instead: ``bench/oracle_mutants.py`` runs the oracle
    tests against deliberately broken trees that way."""
    if "dir" not in _SESSION and os.environ.get("ACPGEN_TEST_TREE"):
        _SESSION["dir"] = Path(os.environ["ACPGEN_TEST_TREE"]).resolve()
    if "dir" not in _SESSION:
        from acpgen.output.writer import write_tree

        root = Path(tempfile.mkdtemp(prefix="acpgen-tests-"))
        atexit.register(shutil.rmtree, root, True)
        write_tree(root / "generated", tree_now())
        _SESSION["dir"] = root / "generated"
    path: Path = _SESSION["dir"]
    if str(path) not in sys.path:
        # Appended, not prepended: the tree has a ``tests/`` folder of its own, which must not
        # shadow this suite's ``tests`` package (``from tests.conftest import ...``) in
        # modules collected after this runs.
        sys.path.append(str(path))
    return path


@pytest.fixture(scope="session")
def project_root() -> Path:
    return PROJECT_ROOT


@pytest.fixture(scope="session")
def inputs_dir() -> Path:
    if not (INPUTS / "schema" / "v1" / "schema.json").is_file():
        pytest.fail(f"pinned inputs not found at {INPUTS}")
    return INPUTS


@pytest.fixture(scope="session")
def project(inputs_dir: Path):  # type: ignore[no-untyped-def]
    return load_real_project()


@pytest.fixture(scope="session")
def skeleton(tmp_path_factory: pytest.TempPathFactory, inputs_dir: Path) -> Path:
    """The session's skeleton (package ``interop_sdk``), made once by the real CLI with the
    inputs vendored (``test_skeleton_support.shared_skeleton``). Tests must not change it."""
    from test_skeleton_support import shared_skeleton

    return shared_skeleton(tmp_path_factory, inputs_dir)


@pytest.fixture(scope="session")
def ts_root() -> Path:
    """The official TypeScript SDK, installed once (``npm ci``, ``tests/ts_sdk.py``)."""
    import ts_sdk

    return ts_sdk.install()


@pytest.fixture(scope="session")
def generated_root() -> Path:
    """A generated tree built now from the pinned inputs (see :func:`generated_dir`)."""
    return generated_dir()


@pytest.fixture()
def inputs_copy(tmp_path: Path, inputs_dir: Path) -> Path:
    """A writable copy of the pinned inputs (every file the lock pins: v1 stable's schema, meta
    and roster, and the other surfaces' schemas and method tables) to break on purpose."""
    from acpgen.inputs.lock import load_lock

    dest = tmp_path / "inputs"
    for pinned in load_lock(PROJECT_ROOT).files.values():
        (dest / pinned.path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(inputs_dir / pinned.path, dest / pinned.path)
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


# The modules that take longest (wall time, measured with --durations), longest first. With
# `pytest -n N --dist loadfile` (and xdist's own reordering by test count turned off: addopts)
# a worker takes the next module in collection order whenever it is free: handing out the longest first keeps one long module from starting last and running
# alone at the end (the longest-processing-time rule). Order only: every module still runs.
LONGEST_FIRST = ("test_docs.py", "test_standalone_ci.py", "test_skeleton_bump.py", "test_conformance.py",
                 "test_conformance_matrix.py", "test_conformance_classes.py", "test_conformance_ci.py",
                 "test_hostile_inputs.py", "test_fast_format.py",
                 "test_check.py", "test_surfaces.py", "test_standalone.py", "test_injection_routes.py",
                 "test_bump.py", "test_fidelity.py", "test_release_history.py", "test_evolve_matrix.py",
                 "test_trace_pairs.py")


def _longest_first(item: pytest.Item) -> int:
    name = item.path.name
    return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest modules first (LONGEST_FIRST). The published agents and clients
    (tests/real_peers) run only when asked for with ``-m real_peers``: they install hundreds
    of megabytes and take minutes; so do the remote interop runs (``-m remote_interop``),
    which install the official SDK's release candidate in a venv of their own, and the
    official SDK's suite on the python-sdk profile (``-m python_sdk_dropin``)."""
    items.sort(key=_longest_first)  # stable: the order within a module stays as written
    selected = config.getoption("markexpr") or ""
    for marker in ("real_peers", "remote_interop", "remote_load", "interop_negotiation", "python_sdk_dropin"):
        if marker in selected:
            continue
        opt_in = pytest.mark.skip(reason=f"opt-in: runs with `pytest -m {marker}`")
        for item in items:
            if item.get_closest_marker(marker):
                item.add_marker(opt_in)
