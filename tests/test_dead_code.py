"""No dead code: vulture (pinned in the test extra) finds no unused name in acpgen, its tests
and benchmarks, beyond the reviewed allow-list below.

Two scans. The product (``acpgen/`` and what its templates read) is scanned alone: a product
function that only a test calls is dead product code (a test of it proves nothing anybody
uses), so tests do not count as its callers. The names the templates' Jinja tags read (a
plan's fields, ``b.open_limits``) count as used, through a whitelist file written for the
scan. Tests and benchmarks are scanned with the product they exercise, for names
of their own nobody uses. The generated tree (built now by this checkout,
``conftest.generated_dir()``) is scanned with both but never reported: it is where the
shipped code's names are used by the rendered modules (``_Model`` by ``models.py``,
``parse_envelope`` by ``methods.py``, ...).
"""

from __future__ import annotations

import keyword
import re
import tempfile
from pathlib import Path

import pytest
from conftest import PROJECT_ROOT, generated_dir

vulture = pytest.importorskip("vulture")

PRODUCT = "acpgen"
SCANNED = (PRODUCT, "tests", "bench")
# Decorators that register what they decorate (so it is used without a call site).
REGISTERING = ["@check", "@pytest.fixture", "@*.command", "@click.*", "@cli.*", "@*.hookimpl"]
# pytest finds these by name; scripted peers dispatch a method to its `on_<method>` handler.
BY_NAME = ["pytest_*", "test_*", "pytestmark", "on_*"]

# (path, name) -> why it stays. Each entry was reviewed: used where vulture cannot see it.
ALLOWED = {
    # Read by frameworks or rendered code, not by a call vulture can see.
    ("acpgen/shipped/runtime/transports/quietlog.py", "stack_info"): "a logging.LogRecord attribute, cleared for the one-line form",
    ("acpgen/shipped/runtime/transports/quietlog.py", "exc_text"): "a logging.LogRecord attribute, cleared for the one-line form",
    ("acpgen/shipped/runtime/transports/http/bodies.py", "background"): "starlette reads Response.background",
    ("acpgen/shipped/python_sdk/sdk_model.py", "model_config"): "pydantic reads model_config",
    ("acpgen/shipped/python_sdk/sdk_model.py", "UriStr"): "imported by the python-sdk profile's rendered models",
    ("acpgen/shipped/python_sdk/sdk_model.py", "coerce"): "called by the python-sdk profile's rendered models",
    ("acpgen/shipped/runtime/rpc.py", "send_message"): "the engine's public send of one whole message, for a transport or user code",
    # An interpreter setting, read by the import system, not by the code that sets it.
    ("tests/conftest.py", "dont_write_bytecode"): "sys.dont_write_bytecode, read by importlib",
    # The escaping contract: the names tests/test_escaping.py holds every template to.
    ("acpgen/emit/escape.py", "ESCAPING_FILTERS"): "the escaping filters, read by test_escaping",
    ("acpgen/emit/escape.py", "ESCAPING_GLOBALS"): "the escaping globals, read by test_escaping",
    ("acpgen/emit/escape.py", "LAYOUT_PARTS"): "the layout parts, read by test_escaping",
    ("acpgen/emit/render.py", "LAYOUT_HELPERS"): "the layout helpers, read by test_escaping",
    # The IR records what the schema says, also what no emitter needs yet.
    ("acpgen/ir/types.py", "additional_properties"): "the schema's additionalProperties, read by test_build",
    # Parameters whose names pytest's hook and fixture protocols require.
    ("acpgen/pytest_plugin/plugin.py", "early_config"): "pytest_load_initial_conftests signature",
    ("acpgen/pytest_plugin/plugin.py", "collector"): "pytest_make_collect_report signature",
    ("tests/test_interop_ts.py", "ts_root"): "fixture requested for its side effect (npm install)",
    ("acpgen/shipped/conformance/transport_plugin.py", "runtest"): "pytest.Item protocol, pytest calls it",
    # Public API of the generated package, for SDK users (documented, not called by acpgen).
    ("acpgen/shipped/runtime/errors.py", "parse_error"): "RpcError constructor for users",
    ("acpgen/shipped/runtime/errors.py", "request_cancelled"): "RpcError constructor for users",
    ("acpgen/shipped/runtime/guards.py", "__call__"): "the decorator Protocols' call signature",
    ("acpgen/shipped/runtime/model_base.py", "__class_getitem__"): "Omittable[X] subscription",
    ("acpgen/shipped/runtime/negotiation.py", "initialize_response"): "the agreed answer, for users",
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


def template_names(templates: Path) -> set[str]:
    """Every identifier inside a Jinja tag (``{{ ... }}``, ``{% ... %}``) of the templates."""
    names: set[str] = set()
    for path in sorted(templates.rglob("*.jinja")):
        for tag in re.findall(r"\{\{.*?\}\}|\{%.*?%\}", path.read_text(encoding="utf-8"), re.DOTALL):
            names |= set(re.findall(r"[A-Za-z_]\w*", tag))
    return names


def _scan(roots: tuple[str, ...], reported: tuple[str, ...]) -> set[tuple[str, str]]:
    """Unused names under ``reported`` when ``roots``, what the templates read and the
    generated tree are all the code."""
    scan = vulture.Vulture(ignore_names=BY_NAME, ignore_decorators=REGISTERING)
    out = generated_dir()
    read = sorted(n for n in template_names(PROJECT_ROOT / "templates") if not keyword.iskeyword(n))
    with tempfile.TemporaryDirectory(prefix="acpgen-vulture-") as scratch:
        whitelist = Path(scratch) / "template_names.py"
        whitelist.write_text("".join(f"_.{n}\n" for n in read), encoding="utf-8")
        scan.scavenge([str(PROJECT_ROOT / p) for p in roots] + [str(whitelist), str(out)],
                      # npm installs (tests/real_peers, tests/interop_ts) are not ours.
                      exclude=["*/__pycache__/*", "*/node_modules/*"])
    found = set()
    for item in scan.get_unused_code(min_confidence=60):
        path = Path(item.filename).resolve()
        if out in path.parents:
            continue  # a copy of shipped code, or rendered: reported where it is written
        rel = path.relative_to(PROJECT_ROOT).as_posix()
        if rel.split("/", 1)[0] in reported:
            found.add((rel, item.name))
    return found


def _unused() -> set[tuple[str, str]]:
    """The product's unused names (its own callers only), then the tests' and benchmarks'."""
    others = tuple(p for p in SCANNED if p != PRODUCT)
    return _scan((PRODUCT,), (PRODUCT,)) | _scan(SCANNED, others)


@pytest.mark.slow  # vulture over the whole tree: seconds
def test_no_dead_code_beyond_the_reviewed_allow_list() -> None:
    unused = _unused()
    assert unused - set(ALLOWED) == set(), "dead code (remove it, or allow it with a reason)"
    assert set(ALLOWED) - unused == set(), "allowed but no longer reported: drop the entry"


def test_a_product_function_only_a_test_calls_is_dead(tmp_path: Path) -> None:
    """Scanned alone, the product sees no callers in the tests."""
    (tmp_path / "product").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "product" / "m.py").write_text("def helper() -> int:\n    return 1\n")
    (tmp_path / "tests" / "test_m.py").write_text("from m import helper\n\n\ndef test_h():\n    helper()\n")
    alone = vulture.Vulture(ignore_names=BY_NAME, ignore_decorators=REGISTERING)
    alone.scavenge([str(tmp_path / "product")])
    assert [i.name for i in alone.get_unused_code(min_confidence=60)] == ["helper"]
    both = vulture.Vulture(ignore_names=BY_NAME, ignore_decorators=REGISTERING)
    both.scavenge([str(tmp_path / "product"), str(tmp_path / "tests")])
    assert [i.name for i in both.get_unused_code(min_confidence=60)] == []


def test_what_a_template_reads_is_used(tmp_path: Path) -> None:
    (tmp_path / "t.py.jinja").write_text("x = 1  # plan.dead\n{{ plan.shown | ident }}{% if plan.flag %}{% endif %}\n")
    assert {"plan", "shown", "ident", "flag", "if", "endif"} == template_names(tmp_path)


def test_the_check_finds_dead_code(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def used() -> int:\n    return 1\n\n\ndef dead() -> int:\n    return used()\n")
    scan = vulture.Vulture(ignore_names=BY_NAME, ignore_decorators=REGISTERING)
    scan.scavenge([str(module)])
    assert [i.name for i in scan.get_unused_code(min_confidence=60)] == ["dead"]
