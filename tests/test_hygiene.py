"""The test suite builds what it tests and leaves the checkout as it found it.

* Tests of generated code import a tree generated now into a temporary directory
  (``conftest.generated_dir``), never the committed ``generated/``: otherwise a template
  change is not tested until someone regenerates, and ``pytest tests`` would need the
  committed tree. Only the allow-listed modules below name it, each for a reason.
* Every mypy run sends its cache out of the checkout (``--cache-dir``), so no
  ``.mypy_cache`` appears in ``generated/`` or anywhere else after the suite.

(The CI entry point ``.ci/run`` also fails when ``git status`` shows anything new after the
suite.)
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
# Modules allowed to name the committed tree, and why.
COMMITTED_TREE_READERS = {
    "test_verify.py": "proves that verify leaves the committed tree (and schema/) untouched",
}
# Single lines allowed to name it, and why (the whole module stays under the scan).
COMMITTED_TREE_LINES = {
    ("conftest.py", "sys.path[:] = [p for p in sys.path if not p or Path(p).resolve() != PROJECT_ROOT / \"generated\"]"):
        "drops the committed tree from sys.path, where the editable install puts it",
}
# The project root (under any of the names the suite gives it) joined with the output dir.
_COMMITTED = re.compile(
    r"""(PROJECT_ROOT|project_root|\bROOT|project\.root|parents\[\d\]|parent\.parent)\s*/\s*"""
    r"""("generated"|project\.lock\.out)"""
)
# A loop over folder names that include the output dir (``for part in ("schema", "generated")``).
_LOOP_OVER_OUTPUT = re.compile(r"""^\s*for\s+\w+\s+in\s+[(\[].*["']generated["']""")
_GENERATED_ON_PATH = re.compile(r"""sys\.path\.(insert|append)\([^)]*["']generated["']""")
_MYPY_CALL = re.compile(r"""["']mypy["'],""")


def _test_sources() -> dict[str, str]:
    return {
        p.relative_to(TESTS).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(TESTS.rglob("*.py"))
        if p.name != Path(__file__).name and "__pycache__" not in p.parts
    }


def test_the_scan_sees_the_suite() -> None:
    sources = _test_sources()
    assert "conftest.py" in sources and "test_check.py" in sources and len(sources) > 20
    # The pattern catches the spellings it exists for.
    for line in ('PROJECT_ROOT / "generated"', "project.root / project.lock.out",
                 'Path(__file__).resolve().parents[1] / "generated"', 'ROOT / "generated"'):
        assert _COMMITTED.search(line), line
    assert not _COMMITTED.search('copy / "generated"') and not _COMMITTED.search('tmp_path / "generated"')
    assert _LOOP_OVER_OUTPUT.search('    for part in ("schema", "generated"):')
    assert not _LOOP_OVER_OUTPUT.search('    for part in ("schema", "templates"):')


def test_no_test_reads_or_imports_the_committed_generated_tree() -> None:
    offenders = []
    for rel, text in _test_sources().items():
        if Path(rel).name in COMMITTED_TREE_READERS:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if (rel, line.strip()) in COMMITTED_TREE_LINES:
                continue
            if _COMMITTED.search(line) or _GENERATED_ON_PATH.search(line) or _LOOP_OVER_OUTPUT.search(line):
                offenders.append(f"{rel}:{n}: {line.strip()}")
    assert offenders == [], "use conftest.generated_dir() (a tree generated now into tmp):\n" + "\n".join(offenders)


def test_every_mypy_run_keeps_its_cache_out_of_the_checkout() -> None:
    offenders = []
    for rel, text in _test_sources().items():
        for match in _MYPY_CALL.finditer(text):
            call = text[match.start(): match.start() + 400]
            if "--cache-dir" not in call:
                offenders.append(f"{rel}:{text.count(chr(10), 0, match.start()) + 1}")
    assert offenders == [], "mypy without --cache-dir writes .mypy_cache into its cwd: " + ", ".join(offenders)


def _fast_tests(text: str) -> list[str] | None:
    """The module's test functions without a ``slow`` mark; None when the whole module is
    marked slow (``pytestmark = pytest.mark.slow``) or has no test."""
    tree = ast.parse(text)
    for node in tree.body:
        marks_module = isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets)
        if marks_module and "slow" in ast.unparse(node.value):
            return None
    tests = [node for node in tree.body
             if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_")]
    if not tests:
        return None  # a helper module
    return [node.name for node in tests if "pytest.mark.slow" not in map(ast.unparse, node.decorator_list)]


def test_the_fast_tier_keeps_a_test_of_every_module() -> None:
    """``pytest -m "not slow"`` covers every module, unless the module is all about slow
    things and says so once, in its ``pytestmark``."""
    assert _fast_tests("import pytest\npytestmark = pytest.mark.slow\ndef test_a(): pass\n") is None
    assert _fast_tests("import pytest\n@pytest.mark.slow\ndef test_a(): pass\ndef test_b(): pass\n") == ["test_b"]
    assert _fast_tests("import pytest\n@pytest.mark.slow\ndef test_a(): pass\n") == []
    without = [rel for rel, text in _test_sources().items()
               if Path(rel).name.startswith("test_") and _fast_tests(text) == []]
    assert without == [], "modules with no fast test (mark one fast, or the whole module slow): " + ", ".join(without)


def test_the_longest_first_order_names_modules_that_exist() -> None:
    """A renamed module would silently lose its place at the front (conftest.LONGEST_FIRST)."""
    from conftest import LONGEST_FIRST

    here = {p.name for p in Path(__file__).parent.rglob("test_*.py")}
    assert [name for name in LONGEST_FIRST if name not in here] == []
    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)
