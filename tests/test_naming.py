"""The naming module: every schema or meta.json name becomes a valid, non-shadowing Python
name, or a NamingError that the IR turns into a refusal by pointer."""

from __future__ import annotations

import keyword

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from acpgen.ir import naming


@pytest.mark.parametrize(("wire", "py"), [
    ("toolCallId", "tool_call_id"), ("_meta", "field_meta"), ("@type", "field_type"),
    ("$id", "field_id"), ("", "field_"), ("é", "field_c3a9"), ("$", "field_24"),
    ("class", "class_"), ("json", "json_"), ("model_config", "field_model_config"), ("2fa", "field_2fa"),
    ("a b", "a_b"), ("type", "type"), ("id", "id"), ("list", "list"),
])
def test_member_names(wire: str, py: str) -> None:
    assert naming.snake_case(wire) == py


def test_a_member_never_hides_a_name_its_class_annotations_use() -> None:
    assert naming.field_names(["list", "items", "str"], {"list", "str", "dict"}) == ["list_", "items", "str_"]
    assert naming.field_names(["list"], set()) == ["list"]


@settings(max_examples=300, deadline=None, database=None)
@given(st.text())
def test_every_member_name_is_a_usable_identifier(wire: str) -> None:
    name = naming.snake_case(wire)
    assert naming.is_identifier(name) and not name.startswith("_")
    assert name not in naming.PYDANTIC_ATTRIBUTES and not name.startswith("model_")
    method = naming.method_py_name(wire)
    assert naming.is_identifier(method) and method not in naming.INTERFACE_MEMBERS


@settings(max_examples=300, deadline=None, database=None)
@given(st.text())
def test_every_constant_name_is_an_identifier(source: str) -> None:
    assert naming.is_identifier(naming.constant_name(source))


@pytest.mark.parametrize("name", ["None", "int", "isinstance", "Field", "_Private", "model_x",
                                  "a b", "Ünïcode", "class", "X(_Model):\n", ""])
def test_def_names_that_cannot_be_class_names(name: str) -> None:
    with pytest.raises(naming.NamingError):
        naming.def_class_name(name)


def test_enum_member_names() -> None:
    assert naming.member_name("end_turn", None) == "END_TURN"
    assert naming.member_name("endTurn", None) == "END_TURN"
    assert naming.member_name(-32700, "Parse error") == "PARSE_ERROR"
    assert naming.member_name(-1, None) == "VALUE_MINUS_1"
    assert naming.member_name("1st", None) == "V_1ST"
    assert naming.member_name("é", None) == "V_C3A9"
    assert not any(keyword.iskeyword(naming.member_name(v, None)) for v in ("none", "true", "false"))


def test_two_inputs_with_one_python_name_are_named_both() -> None:
    naming.unique([("a", "a"), ("b", "b")], "things")
    with pytest.raises(naming.NamingError, match="things 'a-b' and 'a_b' both map to the Python name 'a_b'"):
        naming.unique([("a-b", "a_b"), ("a_b", "a_b")], "things")
