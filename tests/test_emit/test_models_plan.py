"""Model planning (``acpgen.emit.models_plan``) in isolation, on the fixture schemas.

The planner turns IR defs into plain-data blocks; these tests pin what it decides for each
shape (block kind, bases, field flags, union typing, order), written by hand.
"""

from __future__ import annotations

import pytest
from support.fixture_schemas import fixture_ir, fixture_meta, fixture_schema

from acpgen.emit import type_tree as tt
from acpgen.emit.models_plan import Block, EnumMember, FieldSpec, IntRange, int_formats, plan_models
from acpgen.errors import AcpgenError
from acpgen.ir.build import build_ir

STR = tt.Prim("StrictStr")


def blocks(shape: str) -> dict[str, Block]:
    return {b.name: b for b in plan_models(fixture_ir(shape)) if not b.name.endswith("Capabilities")}


def fields(block: Block) -> dict[str, FieldSpec]:
    return {f.py_name: f for f in block.fields}


def test_object_fields_aliases_flags_and_constraints() -> None:
    session = blocks("object")["Session"]
    assert (session.kind, session.public, session.bases, session.doc) == ("class", True, ["_Model"], "A session.")
    f = fields(session)
    assert list(f) == ["session_id", "title", "tags", "extra", "counts", "field_meta"]
    assert (f["session_id"].alias, f["session_id"].required, f["session_id"].description) == ("sessionId", True, "The id.")
    assert f["title"].type == tt.Prim("StrictStr", (("max_length", 80), ("min_length", 1)))
    assert f["title"].omit_only and not f["title"].nullable  # optional: absent yes, null no
    assert (f["tags"].has_default, f["tags"].default, f["tags"].validate_default) == (True, [], True)
    assert f["extra"].type == tt.DictOf(tt.AnyNode())
    assert f["counts"].type == tt.DictOf(tt.Prim("StrictInt"))
    assert (f["field_meta"].alias, f["field_meta"].nullable, f["field_meta"].omit_only) == ("_meta", True, False)


def test_enums_closed_and_open_with_the_catch_all_range() -> None:
    b = blocks("open_enum")
    assert (b["Role"].kind, b["Role"].base) == ("enum", "str")
    assert b["Role"].members == [EnumMember("USER", "user", None), EnumMember("ASSISTANT", "assistant", None)]
    assert [m.doc for m in b["StopReason"].members] == ["Done.", None]
    assert (b["ToolKind"].kind, b["ToolKind"].open_limits) == ("open_enum", [])
    code = b["ErrorCode"]
    assert (code.kind, code.base) == ("open_enum", "int")
    # Integer members are named by their titles; the catch-all keeps the int32 range.
    assert [(m.name, m.value) for m in code.members] == [("PARSE_ERROR", -32700), ("METHOD_NOT_FOUND", -32601)]
    assert code.open_limits == [("ge", -(2**31)), ("le", 2**31 - 1)]
    # The catch-all's range is written on the enum: no named Int32 range is needed.
    assert int_formats(fixture_ir("open_enum")) == []


def test_tagged_union_branches_subclass_their_defs_and_the_catch_all_is_nested() -> None:
    b = blocks("tagged_union")
    # Branch classes are public, named {Union}{Variant} (the variant from the tag).
    text = b["ContentBlockText"]
    assert (text.public, text.bases, text.deps) == (True, ["TextContent"], {"TextContent"})
    assert fields(text)["type"].type == tt.Lit("text")
    assert fields(text)["type"].tag  # required at run time, defaulted for type checkers
    assert b["ContentBlock"].kind == "alias"
    assert b["ContentBlock"].type == tt.Disc("type", (tt.Named("ContentBlockText"), tt.Named("ContentBlockImage")))
    assert b["ContentBlock"].deps == {"ContentBlockText", "ContentBlockImage"}

    # Elicitation: common member message on every branch; "other" is one class per scope.
    assert b["ElicitationForm"].bases == ["FormMode"]
    assert list(fields(b["ElicitationForm"])) == ["message", "mode"]
    assert fields(b["ElicitationForm"])["mode"].type == tt.Lit("form")
    for scope in ("Session", "Request"):
        cls = b[f"ElicitationOther{scope}"]
        assert (cls.bases, cls.public) == ([f"{scope}Scope"], True)
        assert fields(cls)["mode"].type == STR and fields(cls)["message"].required
    typ = b["Elicitation"].type
    assert isinstance(typ, tt.Tagged)
    assert (typ.k, typ.wire, typ.attr, typ.known, typ.other, typ.default) == (
        "tagged", "mode", "mode", ("form",), "(other)", None)
    assert typ.members == (
        tt.TaggedMember("form", tt.Named("ElicitationForm")),
        tt.TaggedMember("(other)", tt.UnionOf((tt.Named("ElicitationOtherSession"), tt.Named("ElicitationOtherRequest")))),
    )


def test_untagged_unions_are_plain_unions_of_their_members() -> None:
    b = blocks("untagged_union")
    assert b["RequestId"].type == tt.UnionOf((tt.NoneNode(), tt.Prim("Int64"), STR))
    # A branch that adds nothing is the def's own class (no subclass).
    assert b["McpServer"].type == tt.UnionOf((tt.Named("HttpServer"), tt.Named("StdioServer")))
    assert [name for name in b if name.startswith("McpServer")] == ["McpServer"]


def test_integer_formats_become_named_ranges_plus_tighter_bounds() -> None:
    b = blocks("integer_formats")
    f = fields(b["Limits"])
    assert {name: spec.type for name, spec in f.items()} == {
        "small": tt.Prim("Uint16"),
        "count": tt.Prim("Uint32", (("ge", 1),)),
        "big": tt.Prim("Uint64"),  # minimum 0 is the format's own bound
        "offset": tt.Prim("Int64"),
        "plain": tt.Prim("StrictInt"),
    }
    assert b["Port"].type == tt.Prim("Uint16", (("ge", 1024),))
    assert int_formats(fixture_ir("integer_formats")) == [
        IntRange("Int64", -(2**63), 2**63 - 1),
        IntRange("Uint16", 0, 2**16 - 1),
        IntRange("Uint32", 0, 2**32 - 1),
        IntRange("Uint64", 0, 2**64 - 1),
    ]


def test_nullable_optional_and_default_flags() -> None:
    f = fields(blocks("nullable")["Plan"])
    flags = {n: (s.required, s.nullable, s.omit_only, s.has_default, s.validate_default) for n, s in f.items()}
    assert flags == {
        "title": (False, True, False, False, False),
        "owner": (False, True, False, False, False),
        "note": (False, False, True, False, False),
        "reviewer": (False, True, False, True, True),  # a ref default is validated
        "entries": (True, False, False, False, False),
    }
    assert f["owner"].type == tt.Named("Person")


def test_recursive_refs_are_lazy_and_aliases_follow_their_members() -> None:
    planned = [b.name for b in plan_models(fixture_ir("recursive_ref")) if not b.name.endswith("Capabilities")]
    b = blocks("recursive_ref")
    assert b["Tree"].lazy == {"Tree"} and b["Tree"].deps == set()
    assert b["Sum"].lazy == {"Expr"}
    assert b["Expr"].deps == {"Num", "Sum"}
    # An alias is evaluated at import time: its members come first; annotations may wait.
    assert planned.index("Expr") > max(planned.index("Num"), planned.index("Sum"))


def test_a_def_named_like_a_module_import_is_refused() -> None:
    schema = fixture_schema("recursive_ref")
    schema["$defs"]["Literal"] = schema["$defs"].pop("Num")
    schema["$defs"]["Expr"]["anyOf"][0] = {"$ref": "#/$defs/Literal"}
    # Refused where the IR is built (acpgen.ir.naming), by the def's pointer in its file.
    with pytest.raises(AcpgenError, match=r"^fx.json: /\$defs/Literal: def name 'Literal' would shadow "
                       "a name the models module imports$"):
        build_ir(schema, fixture_meta(), "fx.json")


def test_a_nested_branch_without_a_ref_is_refused() -> None:
    schema = fixture_schema("tagged_union")
    other = schema["$defs"]["Elicitation"]["anyOf"][1]
    other["anyOf"][1] = {"title": "Loose", "type": "object", "properties": {"x": {"type": "string"}}}
    with pytest.raises(AcpgenError, match="nested branch of variant 1 has no \\$ref"):
        plan_models(build_ir(schema, fixture_meta(), "fx.json"))
