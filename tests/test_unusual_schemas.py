"""Unusual but valid JSON Schema: represented exactly, or refused by rule (one line, the file
and the JSON pointer of the element). Never widened to ``Any``.

Each case adds one def (or property) to the small fixture of ``tests/hostile_fixture.py``,
generates the models module in-process (black included) and imports it from a temporary
directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import hostile_fixture as hf
import pytest
from pydantic import TypeAdapter, ValidationError

from acpgen.errors import AcpgenError
from acpgen.output.format import format_python


def _models(tmp_path: Path, defs: dict[str, Any], meta_change: dict[str, Any] | None = None) -> Any:
    schema, meta = hf.fixture()
    schema["$defs"].update(defs)
    meta.update(meta_change or {})
    ir = hf.build(schema, meta)
    files = hf.emit_unformatted(ir, schema, only_models=True)
    files = {rel: format_python(rel, text) for rel, text in files.items()}
    return hf.load_package(files, tmp_path)["models"]


def _refusal(defs: dict[str, Any], meta_change: dict[str, Any] | None = None) -> str:
    schema, meta = hf.fixture()
    schema["$defs"].update(defs)
    meta.update(meta_change or {})
    with pytest.raises(AcpgenError) as info:
        ir = hf.build(schema, meta)
        hf.emit_unformatted(ir, schema, only_models=True)
    text = str(info.value)
    assert "\n" not in text
    return text


def test_allof_without_ref_keeps_its_constraints(tmp_path: Path) -> None:
    models = _models(tmp_path, {
        "Short": {"allOf": [{"type": "string", "maxLength": 3}], "description": "At most three."},
        "Holder": {"type": "object", "properties": {"code": {"allOf": [{"type": "integer"}, {"minimum": 2}]}}},
    })
    short = TypeAdapter(models.Short)
    assert short.validate_python("abc") == "abc"
    with pytest.raises(ValidationError):
        short.validate_python("abcd")
    assert models.Holder(code=2).code == 2
    with pytest.raises(ValidationError):
        models.Holder(code=1)
    with pytest.raises(ValidationError):
        models.Holder(code="2")  # not Any: still an integer


def test_an_array_def_is_a_list_alias(tmp_path: Path) -> None:
    names = TypeAdapter(_models(tmp_path, {"Names": {"type": "array", "items": {"type": "string"},
                                                      "maxItems": 2}}).Names)
    assert names.validate_python(["a", "b"]) == ["a", "b"]
    for bad in (["a", "b", "c"], [1], "ab"):
        with pytest.raises(ValidationError):
            names.validate_python(bad)


def test_a_const_def_is_a_literal(tmp_path: Path) -> None:
    fixed = TypeAdapter(_models(tmp_path, {"Fixed": {"const": "fixed"}}).Fixed)
    assert fixed.validate_python("fixed") == "fixed"
    with pytest.raises(ValidationError):
        fixed.validate_python("other")


def test_untyped_and_numeric_enums_keep_their_values(tmp_path: Path) -> None:
    models = _models(tmp_path, {
        "Untyped": {"enum": [1, 2]},
        "Numbered": {"type": "number", "enum": [3, -3]},
        "Words": {"enum": ["READ", "write"]},
    })
    assert [m.value for m in models.Untyped] == [1, 2]
    assert [m.value for m in models.Numbered] == [3, -3]
    assert TypeAdapter(models.Untyped).validate_python(2) is models.Untyped(2)
    assert all(isinstance(m.value, int) for m in models.Numbered)  # not a string enum
    assert [m.value for m in models.Words] == ["READ", "write"]


def test_a_nullable_enum_member_accepts_null_and_its_values_only(tmp_path: Path) -> None:
    models = _models(tmp_path, {"Holder": {"type": "object", "properties": {
        "mode": {"type": ["string", "null"], "enum": ["a", "b", None]},
    }}})
    assert models.Holder(mode=None).mode is None
    assert models.Holder(mode="a").mode == "a"
    with pytest.raises(ValidationError):
        models.Holder(mode="c")


@pytest.mark.slow
def test_odd_property_names_keep_their_wire_names(tmp_path: Path) -> None:
    wires = ["", "@type", "$id", "_meta", "é", "list", "class", "model_config", "json", "a b"]
    models = _models(tmp_path, {"Odd": {"type": "object", "properties": {
        **{w: {"type": "string"} for w in wires},
        "items": {"type": "array", "items": {"type": "string"}},
    }}})
    fields = models.Odd.model_fields
    assert sorted(n if f.serialization_alias is None else f.serialization_alias for n, f in fields.items()) == sorted([*wires, "items"])
    assert not any(n.startswith("_") for n in fields)
    assert "list" not in fields  # it would hide list[...] of `items`
    data = {w: f"v{i}" for i, w in enumerate(wires)} | {"items": ["x"]}
    assert models.Odd.model_validate(data).model_dump(by_alias=True, exclude_unset=True) == data


def test_defaults_keep_schema_order(tmp_path: Path) -> None:
    default = {"zeta": 1, "alpha": {"y": 2, "b": 3}, "mid": [3, 2, 1]}
    models = _models(tmp_path, {"Holder": {"type": "object", "properties": {
        "settings": {"type": "object", "default": default},
    }}})
    value = models.Holder.model_fields["settings"].default
    assert value == default
    assert list(value) == ["zeta", "alpha", "mid"] and list(value["alpha"]) == ["y", "b"]


@pytest.mark.parametrize(("defs", "pointer", "says"), [
    ({"None": {"type": "object"}}, "/$defs/None", "not a Python identifier"),
    ({"isinstance": {"type": "object"}}, "/$defs/isinstance", "builtin"),
    ({"int": {"type": "string"}}, "/$defs/int", "builtin"),
    ({"Field": {"type": "string"}}, "/$defs/Field", "imports"),
    ({"_Hidden": {"type": "string"}}, "/$defs/_Hidden", "starts with '_'"),
    ({"Case": {"enum": ["READ", "read"]}}, "/$defs/Case", "'READ'"),
    ({"Dash": {"enum": ["a-b", "a_b"]}}, "/$defs/Dash", "'a-b' and 'a_b'"),
    ({"Pair": {"type": "object", "properties": {"a-b": {"type": "string"}, "a_b": {"type": "string"}}}},
     "/$defs/Pair/properties", "'a-b' and 'a_b'"),
    ({"Floats": {"type": "number", "enum": [1.5, 2.5]}}, "/$defs/Floats/enum", "all integers"),
    ({"Mixed": {"enum": [1, "a"]}}, "/$defs/Mixed/enum", "all strings or all integers"),
    ({"Maybe": {"type": ["string", "null"], "enum": ["a"]}}, "/$defs/Maybe", "nullable enum"),
    ({"Loose": {"type": "object", "properties": {"x": {"minLength": 2}}}},
     "/$defs/Loose/properties/x", "does not model"),
    ({"Obj": {"type": "object", "properties": {"c": {"const": {"a": 1}}}}},
     "/$defs/Obj/properties/c/const", "not modelled"),
    ({"Look": {"type": "string", "pattern": "^a(?=b)"}}, "/$defs/Look/pattern", "look-around"),
    ({"Two": {"allOf": [{"type": "string"}, {"type": "integer"}]}}, "/$defs/Two/allOf/1", "'type'"),
])
def test_what_cannot_be_represented_is_refused_by_pointer(defs: dict[str, Any], pointer: str, says: str) -> None:
    text = _refusal(defs)
    assert text.startswith(f"{hf.SCHEMA}: {pointer}: "), text
    assert says in text, text


def test_methods_that_map_to_one_python_name_are_refused_naming_both() -> None:
    schema, meta = hf.fixture()
    meta["agentMethods"]["agent_note_2"] = "agent-note"  # agent/note is there already
    schema["$defs"]["AgentNote2Params"] = {"type": "object", "x-method": "agent-note",
                                           "x-side": "agent", "properties": {}}
    schema["$defs"]["AgentNote2Envelope"] = {
        "type": "object", "required": ["method", "params"],
        "properties": {"method": {"type": "string"}, "params": {"$ref": "#/$defs/AgentNote2Params"}},
    }
    with pytest.raises(AcpgenError) as info:
        hf.build(schema, meta)
    # Both entries named, the second by its JSON pointer in meta.json.
    assert str(info.value) == (f"{hf.META}: /agentMethods/agent_note_2: method 'agent-note' and "
                               "'agent/note' (/agentMethods/agent_note) both map to the Python name "
                               "'agent_note'")


def test_a_boolean_version_is_refused() -> None:
    schema, meta = hf.fixture()
    meta["version"] = True
    with pytest.raises(AcpgenError, match="/version: must be an integer"):
        hf.build(schema, meta)


def test_nesting_and_numbers_python_cannot_hold_are_refused() -> None:
    schema, meta = hf.fixture()
    deep: Any = {"type": "string"}
    for _ in range(100):
        deep = {"allOf": [deep]}
    schema["$defs"]["Deep"] = deep
    with pytest.raises(AcpgenError, match="nested deeper than 64"):
        hf.build(schema, meta)
    schema, meta = hf.fixture()
    schema["$defs"]["Probe"]["properties"]["withDefault"]["default"] = float("inf")
    with pytest.raises(AcpgenError, match=r"/\$defs/Probe/properties/withDefault/default: number inf"):
        hf.build(schema, meta)
