"""Hostile and unusual inputs: every string of the schema and meta.json either survives into
the generated code exactly, or is refused with one line naming the input element.

Property-based (hypothesis): strings with quotes of every kind, backslashes, every line
break, NUL and control characters, Jinja syntax, Python code, keywords, builtins, pydantic
attribute names, very long and non-ASCII text go into every site of a small fixture
(``tests/hostile_fixture.py``). For each example, either

- acpgen refuses it: an :class:`AcpgenError` whose one-line message names the input file
  and the JSON pointer (or meta.json entry) of the element; or
- the generated code compiles, imports without running anything (no canary file appears)
  and gives every value back exactly: docstrings via ``inspect.cleandoc``, descriptions,
  enum values, consts, defaults, patterns, wire names, capability names (ErrorCode titles
  name their members).

``models.py`` goes through black as in ``acpgen generate``; the large fixed modules whose
hostile strings are few (``methods.py``, the checks' capability table) are
compiled as rendered in the many-example test (black costs ~1.5 s on them), and through
black as well in a smaller test. Each site is exercised at least ``MIN_PER_SITE`` times.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import os
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import hostile_fixture as hf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from acpgen.emit.escape import doc_text
from acpgen.errors import AcpgenError
from acpgen.ir.naming import member_name
from acpgen.output.format import format_python

MIN_PER_SITE = 100
CANARY = Path(tempfile.gettempdir()) / f"acpgen-hostile-canary-{os.getpid()}"
_RUN = f"__import__('pathlib').Path({str(CANARY)!r}).touch()"

# Pieces that each try to end the context a string is written into and run _RUN.
BREAKOUTS = [
    f"X(_Model):\n    pass\n\n{_RUN}\n\nclass Y",  # route 1: a class name
    f'"""\n{_RUN}\n"""',  # route 2: out of a docstring
    f"PARSE_ERROR:0#\n{_RUN}",  # route 3: out of a comment
    f'"\n{_RUN}\n"',  # route 4: out of a "..." literal
    f"'\n{_RUN}\n'", f"'''{_RUN}'''", f"\\\n{_RUN}", f"\r{_RUN}", f"\u2028{_RUN}", f"\x0c{_RUN}",
    f"{{{{ {_RUN} }}}}", f"{{% raw %}}{_RUN}", "}}{{", "{#", f"\x00{_RUN}",
]
WORDS = [
    "None", "True", "class", "def", "import", "lambda", "match", "type", "list", "str", "dict",
    "int", "isinstance", "getattr", "object", "model_config", "model_fields", "copy", "json",
    "schema", "validate", "__init__", "__class__", "_private", "Field", "BaseModel", "Enum",
    "annotations", "METHODS", "_Model", "__all__",
]
CHARS = ['"', "'", '"""', "\\", "\n", "\r\n", "\t", "\x00", "\x1b", "\x7f", "\x85", "\u2028",
         "\u2029", "\u202e", "\ufeff", "é", "ﬁ", "😀", " ", "#", "$", "@", "-", "/", "~"]

HOSTILE = st.one_of(
    st.lists(st.sampled_from(BREAKOUTS + WORDS + CHARS), min_size=1, max_size=6).map("".join),
    st.text(alphabet=st.characters(exclude_categories=("Cs",)), min_size=1, max_size=30),
    st.sampled_from(WORDS),
    st.sampled_from(["", "x" * 3000, "é" * 500 + '"', "\n" * 50 + "end"]),
)
TEXT_SITES = ("def_description", "property_name", "property_description", "title",
              "enum_description", "const", "default", "method_name", "error_code_title",
              "capability_name")
counts: Counter[str] = Counter()
refusals: Counter[str] = Counter()


def _assert_refusal(exc: AcpgenError) -> None:
    """A refusal is one line naming the input file and the element (pointer or method)."""
    text = str(exc)
    assert "\n" not in text and "\r" not in text, text
    assert exc.where in (hf.SCHEMA, hf.META), text
    assert "formatter" not in text and "black" not in text, text
    assert text.startswith(f"{exc.where}: /") or exc.where == hf.META, text
    refusals[text.split(": ")[1]] += 1


def _field(cls: Any, wire: str) -> Any:
    found = [f for name, f in cls.model_fields.items() if (name if f.serialization_alias is None else f.serialization_alias) == wire]
    assert len(found) == 1, (wire, list(cls.model_fields))
    return found[0]


def _py_name(cls: Any, wire: str) -> str:
    return next(name for name, f in cls.model_fields.items() if (name if f.serialization_alias is None else f.serialization_alias) == wire)


def _docstrings_after(tree: ast.Module, class_name: str) -> list[str]:
    """The member docstrings of an enum class (the string after each member)."""
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    body = cls.body
    return [ast.literal_eval(b.value) for a, b in itertools.pairwise(body)
            if isinstance(a, ast.Assign) and isinstance(b, ast.Expr)]


def _generate(sites: dict[str, Any], tmp: Path, black_everything: bool = False,
              only_models: bool = False) -> dict[str, Any] | None:
    schema, meta = hf.fixture(**sites)
    try:
        ir = hf.build(schema, meta)
        files = hf.emit_unformatted(ir, schema, only_models=only_models)
    except AcpgenError as exc:
        _assert_refusal(exc)
        return None
    for rel in list(files):
        if rel.endswith("models.py") or black_everything:
            files[rel] = format_python(rel, files[rel])
    # Imported modules are compiled by the import. Of the checks module (37 KB of fixed code),
    # the many-example test parses the capability table, the black test the whole module.
    checks = files.get("tests/_acp_target.py")
    trees = {}
    if checks is not None:
        trees["checks"] = ast.parse(checks if black_everything else _capability_table(checks))
    modules: dict[str, Any] = dict(hf.load_package(files, tmp))
    modules["trees"] = trees
    assert not CANARY.exists(), "importing the generated code ran input text"
    modules["files"] = files
    return modules


def _capability_table(source: str) -> str:
    """The ``CAPABILITIES = {...}`` statement of the checks module: one entry a line (the
    escaping keeps every literal on one line), up to the closing brace."""
    lines = source.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("CAPABILITIES"))
    end = next(i for i in range(start, len(lines)) if lines[i] == "}")
    return "\n".join(lines[start : end + 1]) + "\n"


def _read_back(sites: dict[str, Any], got: dict[str, Any]) -> None:
    models, files = got["models"], got["files"]
    probe_name = sites.get("def_name", "Probe")
    probe = getattr(models, probe_name)
    assert probe_name in models.__all__
    counts["def_name"] += 1
    assert inspect.cleandoc(probe.__doc__ or "") == (doc_text(sites["def_description"]) or "")
    counts["def_description"] += 1
    wire = sites["property_name"]
    assert _field(probe, wire).description == sites["property_description"]
    counts["property_description"] += 1
    instance = probe.model_validate({wire: "v", "fixed": sites["const"]})
    dumped = instance.model_dump(by_alias=True, exclude_unset=True)
    assert dumped == {wire: "v", "fixed": sites["const"]}
    assert getattr(instance, _py_name(probe, wire)) == "v"
    counts["property_name"] += 1
    counts["const"] += 1
    assert _field(probe, "withDefault").default == sites["default"]
    counts["default"] += 1
    assert [m.pattern for m in _field(probe, "matching").metadata if hasattr(m, "pattern")] == [
        sites.get("pattern", "^a+$")]
    counts["pattern"] += 1
    assert [m.value for m in models.ProbeKind] == sites["enum_value"]
    counts["enum_value"] += 1
    tree = ast.parse(files[f"{hf.PACKAGE}/models.py"])
    expected_doc = doc_text(sites["enum_description"])
    if expected_doc:
        assert [inspect.cleandoc(d) for d in _docstrings_after(tree, "ProbeKind")] == [expected_doc] * 2
    counts["enum_description"] += 1
    # The union's branch class: public, {Union}{Variant} (the variant from the hostile title).
    union_classes = [n.name for n in tree.body
                     if isinstance(n, ast.ClassDef) and n.name.startswith("ProbeUnion") and n.name != "ProbeUnion"]
    assert len(union_classes) == 1
    counts["title"] += 1
    if "methods" not in got:
        return
    methods = got["methods"]
    method = sites["method_name"]
    spec = methods.METHODS[method]
    assert spec.wire == method
    message = spec.message.model_validate({"jsonrpc": "2.0", "id": 1, "method": method, "params": {}})
    assert message.method == method
    counts["method_name"] += 1
    # A title names its ErrorCode member (the runtime's own codes are fixed Python).
    assert getattr(models.ErrorCode, member_name(1, sites["error_code_title"])) == 1
    counts["error_code_title"] += 1
    cap = sites["capability_name"]
    assert _field(models.AgentCapabilities, cap).default is False
    if not cap.startswith("_"):  # _x members are extension data, not capabilities
        checks = got["trees"]["checks"]
        table = next(n.value for n in checks.body if isinstance(n, ast.AnnAssign)
                     and getattr(n.target, "id", "") == "CAPABILITIES")
        assert f"agentCapabilities.{cap}" in ast.literal_eval(table)
    counts["capability_name"] += 1


SITE_VALUES = st.fixed_dictionaries(
    {site: HOSTILE for site in TEXT_SITES}
    | {"enum_value": st.lists(HOSTILE, min_size=2, max_size=2, unique=True)},
)


@pytest.fixture(autouse=True)
def _no_canary() -> Any:
    CANARY.unlink(missing_ok=True)
    yield
    assert not CANARY.exists()


@pytest.mark.slow
def test_every_string_site_is_written_exactly_or_refused(tmp_path: Path) -> None:
    counts.clear()

    @settings(max_examples=160, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(SITE_VALUES)
    def run(sites: dict[str, Any]) -> None:
        got = _generate(sites, tmp_path)
        if got is not None:
            _read_back(sites, got)

    # Refused examples exercise no site, and how many are refused is random: more rounds
    # until every site has its minimum (a bounded number: a site never reached still fails).
    for _ in range(4):
        run()
        short = {s: counts[s] for s in TEXT_SITES + ("enum_value",) if counts[s] < MIN_PER_SITE}
        if not short:
            break
    assert not short, f"sites exercised fewer than {MIN_PER_SITE} times: {short} (refusals: {refusals})"


def test_black_keeps_every_value(tmp_path: Path) -> None:
    """The same, with every module through black (slow: a few examples)."""

    @settings(max_examples=4, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(SITE_VALUES)
    def run(sites: dict[str, Any]) -> None:
        got = _generate(sites, tmp_path, black_everything=True)
        if got is not None:
            _read_back(sites, got)

    run()


IDENTIFIERS = st.from_regex(r"[A-Z][A-Za-z0-9_]{2,24}", fullmatch=True)


@pytest.mark.slow
def test_def_names_are_class_names_or_refused(tmp_path: Path) -> None:
    counts.clear()
    refusals.clear()
    plain = {site: "plain text" for site in TEXT_SITES} | {"enum_value": ["a", "b"],
                                                            "method_name": "probe/run",
                                                            "property_name": "probeValue",
                                                            "capability_name": "probeCapability"}
    taken = set(hf.fixture()[0]["$defs"])

    @settings(max_examples=110, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(st.one_of(HOSTILE, IDENTIFIERS, IDENTIFIERS).filter(lambda n: n not in taken))
    def run(name: str) -> None:
        sites = plain | {"def_name": name}
        counts["examples"] += 1
        got = _generate(sites, tmp_path, only_models=True)
        if got is not None:
            _read_back(sites, got)

    run()
    # Every example exercises the site: accepted (a class by that name) or refused by pointer.
    assert counts["examples"] >= MIN_PER_SITE
    assert counts["def_name"] >= 30 and sum(refusals.values()) >= 30, (counts, refusals)


def _rust_literal(text: str) -> str:
    """A regex matching ``text`` literally, in the syntax pydantic-core's engine reads."""
    return "".join(ch if ch.isalnum() else f"\\x{{{ord(ch):x}}}" for ch in text)


@pytest.mark.slow
def test_patterns_are_enforced_exactly_or_refused(tmp_path: Path) -> None:
    counts.clear()
    refusals.clear()
    plain = {site: "plain text" for site in TEXT_SITES} | {"enum_value": ["a", "b"],
                                                            "method_name": "probe/run",
                                                            "property_name": "probeValue",
                                                            "capability_name": "probeCapability"}

    @settings(max_examples=110, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(st.one_of(HOSTILE, HOSTILE.map(_rust_literal), st.sampled_from(["^a(?=b)", "(?<!x)y", "(", "\\1"])))
    def run(pattern: str) -> None:
        counts["examples"] += 1
        got = _generate(plain | {"pattern": pattern}, tmp_path, only_models=True)
        if got is not None:
            _read_back(plain | {"pattern": pattern}, got)

    run()
    # Every example exercises the site: enforced exactly, or refused by its pointer.
    assert counts["examples"] >= MIN_PER_SITE and counts["pattern"] >= 50, counts
    assert any(r.endswith("/pattern") for r in refusals), refusals


# -- no traceback on any input -------------------------------------------------------------

SCHEMA_KEYWORDS = [
    "type", "enum", "const", "properties", "required", "items", "additionalProperties", "allOf",
    "anyOf", "oneOf", "default", "description", "title", "pattern", "x-method", "x-side",
    "format", "minimum", "maxLength", "discriminator", "not", "$ref",
]
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
              st.sampled_from(["", "string", "object", "integer", "null", "array", "#/$defs/Probe",
                               "#/$defs/Nope", "agent"]), HOSTILE),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(SCHEMA_KEYWORDS), inner, max_size=3)),
    max_leaves=6,
)


def _nodes(node: Any) -> list[Any]:
    found, stack = [], [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            found.append(n)
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    return found


@pytest.mark.slow
@settings(max_examples=150, deadline=None, database=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(min_value=0), st.sampled_from(SCHEMA_KEYWORDS),
                          JSON_VALUES), min_size=1, max_size=3))
def test_no_input_makes_a_traceback(mutations: list[tuple[bool, int, str, Any]]) -> None:
    """Any value at any keyword of any node: a one-line refusal or generated code, never an
    exception of another kind (the metaschema pass runs first, as in every command)."""
    from acpgen.inputs.metaschema import check_metaschema

    schema, meta = hf.fixture()
    for in_meta, index, key, value in mutations:
        targets = _nodes(meta if in_meta else schema)
        targets[index % len(targets)][key] = value
    try:
        check_metaschema(schema, hf.SCHEMA)
        ir = hf.build(schema, meta)
        hf.emit_unformatted(ir, schema)
    except AcpgenError as exc:
        assert "\n" not in str(exc)
