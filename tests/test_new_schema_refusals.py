"""New schemas (another surface, a schema bump) meet the untrusted-input rules: every refusal
names the element with a JSON pointer, in the input that holds it; a member named like a
pydantic method generates without a warning (docs/untrusted-inputs.md)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import hostile_fixture as hf
import pytest
from conftest import INPUTS, PROJECT_ROOT, load_real_project

from acpgen.errors import AcpgenError
from acpgen.inputs.json_limits import MAX_DEPTH
from acpgen.inputs.pinned import parse_json
from acpgen.ir.build import build_ir
from acpgen.load.capabilities import parse_manifest


def _refusal(call: Any) -> str:
    with pytest.raises(AcpgenError) as info:
        call()
    line = str(info.value)
    assert "\n" not in line
    return line


def test_nesting_too_deep_for_the_parser_names_where() -> None:
    """Deeper than Python's JSON parser can go (a RecursionError inside json.loads): the
    pointer of the container past the limit, computed without the parser."""
    depth = 5000
    text = '{"$defs": {"A/b": ' + '{"x": [' * depth + "]}" * depth + "}}"
    line = _refusal(lambda: parse_json("schema/v2/schema.json", text.encode()))
    # /$defs/A~1b is 2 levels; then x, 0 pairs until the 64th level.
    expected = "/$defs/A~1b" + "/x/0" * ((MAX_DEPTH - 2) // 2)
    assert line.startswith(f"schema/v2/schema.json: {expected}: nested deeper than {MAX_DEPTH} levels"), line


def test_two_methods_with_one_python_name_are_refused_with_a_pointer() -> None:
    schema, meta = hf.fixture()
    # "agent-note" and "agent/note" are both agent_note in Python.
    defs = schema["$defs"]
    for suffix in ("Params", "Envelope"):
        defs[f"AgentNoteTwin{suffix}"] = json.loads(json.dumps(defs[f"AgentNote{suffix}"]).replace(
            "agent/note", "agent-note").replace("AgentNoteParams", "AgentNoteTwinParams"))
    meta["agentMethods"]["agent_note_twin"] = "agent-note"
    line = _refusal(lambda: hf.build(schema, meta))
    assert line.startswith(f"{hf.META}: /agentMethods/agent_note_twin: method 'agent-note' and 'agent/note' "
                           "(/agentMethods/agent_note) both map to the Python name 'agent_note'"), line


@pytest.mark.parametrize(("version", "problem"), [
    (True, "/version: must be an integer (the protocol version), not true"),
    ("1", '/version: must be an integer (the protocol version), not "1"'),
    (1.5, "/version: must be an integer (the protocol version), not 1.5"),
    (0, "/version: 0 is not a protocol version (1 to 2147483647)"),
    (None, "/version: must be an integer (the protocol version), not null"),
])
def test_a_bad_version_is_reported_as_what_it_is(version: Any, problem: str) -> None:
    schema, meta = hf.fixture()
    meta["version"] = version
    assert _refusal(lambda: hf.build(schema, meta)) == f"{hf.META}: {problem}"
    del meta["version"]
    assert _refusal(lambda: hf.build(schema, meta)) == f"{hf.META}: /version: missing (the protocol version, an integer)"


def test_a_renamed_method_is_blamed_on_the_input_that_renamed_it() -> None:
    """A new meta.json renames session/load (same key, new wire name; the schema follows):
    the gating manifest that still names session/load is not what is wrong."""
    project = load_real_project()
    schema = json.loads((INPUTS / "schema/v1/schema.json").read_text(encoding="utf-8"))
    meta = json.loads((INPUTS / "schema/v1/meta.json").read_text(encoding="utf-8"))
    meta["agentMethods"]["session_load"] = "session/reload"
    for definition in schema["$defs"].values():
        if definition.get("x-method") == "session/load":
            definition["x-method"] = "session/reload"
    ir = build_ir(schema, meta, "schema/v1/schema.json", "schema/v1/meta.json")
    blob = (PROJECT_ROOT / "schema" / "capabilities.toml").read_bytes()
    line = _refusal(lambda: parse_manifest(ir, project.roster, blob))
    assert line.startswith("schema/v1/meta.json: /agentMethods/session_load: renames method 'session/load' "
                           "to 'session/reload', which schema/capabilities.toml (gate #1 (session/load)) "
                           "still names"), line
    # A manifest that names a method nobody renamed is still the manifest's mistake.
    typo = blob.replace(b'method = "session/load"', b'method = "session/lode"', 1)
    assert _refusal(lambda: parse_manifest(ir, project.roster, typo)).startswith(
        "schema/capabilities.toml: gate #1 (session/lode): unknown method 'session/lode'")


@pytest.mark.parametrize("wire", ["model_dump", "modelDump", "model_config", "model_fields"])
def test_a_member_named_like_a_pydantic_method_imports_without_warning(wire: str, tmp_path: Path) -> None:
    schema, meta = hf.fixture(property_name=wire)
    files = hf.emit_unformatted(hf.build(schema, meta), schema)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning pydantic raises at class creation fails
        modules = hf.load_package(files, tmp_path)
    probe = modules["models"].Probe
    field = next(name for name, f in probe.model_fields.items() if (f.validation_alias or name) == wire)
    assert not field.startswith("model_")
    value = probe.model_validate({"fixed": "fixed", wire: "x"})
    assert getattr(value, field) == "x"
    assert value.model_dump(by_alias=True, exclude_unset=True) == {"fixed": "fixed", wire: "x"}
    assert callable(value.model_dump)  # pydantic's own method is still there
