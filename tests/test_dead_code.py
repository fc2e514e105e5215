"""No dead code: vulture (pinned in the test extra) finds no unused name in acpgen, its tests
and benchmarks, beyond the reviewed allow-list below.

The generated tree (built now by this checkout, ``conftest.generated_dir()``) is scanned too
but never reported: it is where the shipped code's names are used by the rendered modules
(``_Model`` by ``models.py``, ``parse_envelope`` by ``methods.py``, ...).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PROJECT_ROOT, generated_dir

vulture = pytest.importorskip("vulture")

SCANNED = ("acpgen", "tests", "bench")
# Decorators that register what they decorate (so it is used without a call site).
REGISTERING = ["@check", "@pytest.fixture", "@*.command", "@click.*", "@cli.*", "@*.hookimpl"]
# pytest finds these by name; scripted peers dispatch a method to its `on_<method>` handler.
BY_NAME = ["pytest_*", "test_*", "pytestmark", "on_*"]

# (path, name) -> why it stays. Each entry was reviewed: used where vulture cannot see it.
ALLOWED = {
    # An interpreter setting, read by the import system, not by the code that sets it.
    ("tests/conftest.py", "dont_write_bytecode"): "sys.dont_write_bytecode, read by importlib",
    # Read by templates (jinja2 attribute access), not by Python.
    ("acpgen/emit/runtime.py", "routes"): "templates/runtime/interfaces.py.jinja",
    ("acpgen/emit/test_stubs.py", "xfail_reason"): "templates/tests/section.py.jinja",
    # Parameters whose names pytest's hook and fixture protocols require.
    ("acpgen/pytest_plugin/plugin.py", "early_config"): "pytest_load_initial_conftests signature",
    ("acpgen/pytest_plugin/plugin.py", "collector"): "pytest_make_collect_report signature",
    ("tests/test_interop_ts.py", "ts_root"): "fixture requested for its side effect (npm install)",
    # Public API of the generated package, for SDK users (documented, not called by acpgen).
    ("acpgen/shipped/runtime/errors.py", "parse_error"): "RpcError constructor for users",
    ("acpgen/shipped/runtime/errors.py", "request_cancelled"): "RpcError constructor for users",
    ("acpgen/shipped/runtime/guards.py", "__call__"): "the decorator Protocols' call signature",
    ("acpgen/shipped/runtime/model_base.py", "__class_getitem__"): "Omittable[X] subscription",
    # The base of integer enums: the pinned schema has none, a schema may (tests/test_emit/).
    # Interface methods a test class overrides to be called by the runtime.
    ("tests/test_guards.py", "resume_session"): "Agent override, called by the runtime",
    # Attributes the standard library reads (set on a zipfile.ZipInfo for a deterministic wheel).
    ("acpgen/skeleton/wheel.py", "compress_type"): "read by zipfile",
    ("acpgen/skeleton/wheel.py", "external_attr"): "read by zipfile",
    # pydantic reads class attributes by their names.
    ("acpgen/shipped/runtime/envelopes.py", "model_config"): "pydantic configuration",
    ("acpgen/shipped/runtime/envelopes.py", "jsonrpc"): "pydantic field",
    ("acpgen/shipped/runtime/model_base.py", "model_config"): "pydantic configuration",
    ("acpgen/shipped/runtime/model_base.py", "__pydantic_base_init__"): "read by pydantic",
    ("tests/test_runtime_engine.py", "exact"): "pydantic field of a test model",
    ("acpgen/shipped/runtime/runtime_tests/test_extensions.py", "model_config"): "pydantic configuration",
    # An extension handler registered by its decorator's method name, called by the runtime.
    ("acpgen/shipped/runtime/runtime_tests/test_extensions.py", "bad_result"): "registered extension handler",
    # Names a test module documents for the next site to add (hostile_fixture's docstring).
    ("tests/hostile_fixture.py", "SITES"): "the list of hostile-input sites, read by people",
}


def _unused() -> set[tuple[str, str]]:
    scan = vulture.Vulture(ignore_names=BY_NAME, ignore_decorators=REGISTERING)
    out = generated_dir()
    scan.scavenge([str(PROJECT_ROOT / p) for p in SCANNED] + [str(out)],
                  # npm installs (tests/real_peers, tests/interop_ts) are not ours.
                  exclude=["*/__pycache__/*", "*/node_modules/*"])
    found = set()
    for item in scan.get_unused_code(min_confidence=60):
        path = Path(item.filename).resolve()
        if out in path.parents:
            continue  # a copy of shipped code, or rendered: reported where it is written
        found.add((path.relative_to(PROJECT_ROOT).as_posix(), item.name))
    return found


@pytest.mark.slow  # vulture over the whole tree: seconds
def test_no_dead_code_beyond_the_reviewed_allow_list() -> None:
    unused = _unused()
    assert unused - set(ALLOWED) == set(), "dead code (remove it, or allow it with a reason)"
    assert set(ALLOWED) - unused == set(), "allowed but no longer reported: drop the entry"


def test_the_check_finds_dead_code(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def used() -> int:\n    return 1\n\n\ndef dead() -> int:\n    return used()\n")
    scan = vulture.Vulture(ignore_names=BY_NAME, ignore_decorators=REGISTERING)
    scan.scavenge([str(module)])
    assert [i.name for i in scan.get_unused_code(min_confidence=60)] == ["dead"]
