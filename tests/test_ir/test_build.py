"""IR building (``acpgen.ir.build``) on one small fixture schema per shape.

Every expectation is written by hand from the fixture file (``tests/data/schemas/``), so a
change in how a shape is read shows up here, named, before it reaches any emitter.
"""

from __future__ import annotations

import pytest
from support.fixture_schemas import SCHEMAS, SHAPES, fixture_ir, fixture_meta, fixture_schema

from acpgen.errors import AcpgenError
from acpgen.inputs.metaschema import check_metaschema
from acpgen.ir.build import build_ir
from acpgen.ir.types import EnumMember, NestedBranch, TypeExpr

STRING = TypeExpr("primitive", name="string")
ANY = TypeExpr("any")


@pytest.mark.parametrize("shape", SHAPES)
def test_every_fixture_is_valid_json_schema_and_builds(shape: str) -> None:
    assert sorted(p.stem for p in SCHEMAS.glob("*.json")) == sorted([*SHAPES, "meta"])
    check_metaschema(fixture_schema(shape), f"{shape}.json")
    assert set(fixture_ir(shape).defs) >= {"AgentCapabilities", "ClientCapabilities"}


def test_object_members_names_required_defaults_and_annotations() -> None:
    ir = fixture_ir("object")
    d = ir.defs["Session"]
    assert (d.shape, d.description, d.pointer) == ("object", "A session.", "/$defs/Session")
    assert d.required == ("sessionId",) and d.additional_properties is False
    assert [(p.wire_name, p.py_name, p.required) for p in d.properties] == [
        ("sessionId", "session_id", True), ("title", "title", False), ("tags", "tags", False),
        ("extra", "extra", False), ("counts", "counts", False), ("_meta", "field_meta", False),
    ]
    session_id, title, tags, extra, counts, meta = d.properties
    assert session_id.type == STRING and session_id.description == "The id."
    assert title.type == TypeExpr("primitive", name="string", constraints=(("minLength", 1), ("maxLength", 80)))
    assert tags.type == TypeExpr("array", items=STRING)
    assert (tags.has_default, tags.default) == (True, [])
    assert extra.type == TypeExpr("map", items=ANY)
    assert counts.type == TypeExpr("map", items=TypeExpr("primitive", name="integer"))
    assert meta.type == TypeExpr("map", items=ANY) and meta.nullable
    assert meta.annotations == (("x-deserialize-default-on-error", True),)
    assert not any(p.nullable for p in d.properties[:-1])
    # The capability roots are empty objects: no capabilities, no methods.
    assert ir.capabilities == () and ir.methods == () and ir.protocol_version == 1
    assert ir.title == "fixture: an object"


def test_closed_and_open_enums() -> None:
    defs = fixture_ir("open_enum").defs
    assert defs["Role"].shape == "enum" and defs["Role"].enum_base == "string"
    assert defs["Role"].enum_members == (EnumMember("user", None, None), EnumMember("assistant", None, None))
    stop = defs["StopReason"]
    assert (stop.shape, stop.union_keyword, stop.catch_all) == ("enum", "oneOf", None)
    assert stop.enum_members == (EnumMember("end_turn", None, "Done."), EnumMember("cancelled", None, None))
    kind = defs["ToolKind"]
    assert (kind.shape, kind.enum_base, kind.union_keyword) == ("open_enum", "string", "anyOf")
    assert [m.value for m in kind.enum_members] == ["read", "edit"]
    assert kind.enum_members[0].title == "Read"
    assert kind.catch_all == STRING
    code = defs["ErrorCode"]
    assert (code.shape, code.enum_base) == ("open_enum", "integer")
    assert [(m.value, m.title) for m in code.enum_members] == [(-32700, "Parse error"), (-32601, "Method not found")]
    assert code.catch_all == TypeExpr("primitive", name="integer", format="int32")


def test_tagged_union_with_a_catch_all_branch_scoped_by_a_nested_union() -> None:
    defs = fixture_ir("tagged_union").defs
    block = defs["ContentBlock"]
    assert (block.shape, block.discriminator, block.union_keyword) == ("tagged_union", "type", "oneOf")
    assert [(v.ref, v.tag, v.catch_all) for v in block.variants] == [
        ("TextContent", "text", False), ("ImageContent", "image", False)]
    assert block.variants[0].description == "Text."
    # The tag member is the discriminator, not a member of the branch.
    assert all(v.properties == () and v.nested == () for v in block.variants)

    el = defs["Elicitation"]
    # No declared discriminator: the one const-valued required member of the tagged branches.
    assert (el.shape, el.discriminator, el.union_keyword) == ("tagged_union", "mode", "anyOf")
    assert [p.wire_name for p in el.properties] == ["message"] and el.required == ("message",)
    form, other = el.variants
    assert (form.ref, form.tag, form.catch_all, form.nested) == ("FormMode", "form", False, ())
    assert (other.ref, other.tag, other.catch_all, other.title) == (None, None, True, "other")
    assert [(p.wire_name, p.type) for p in other.properties] == [("mode", STRING)]
    assert other.nested == (NestedBranch("SessionScope", "Session"), NestedBranch("RequestScope", "Request"))


def test_untagged_unions_of_inline_types_and_of_refs() -> None:
    defs = fixture_ir("untagged_union").defs
    rid = defs["RequestId"]
    assert (rid.shape, rid.discriminator) == ("union", None)
    assert [(v.title, v.ref, v.inline) for v in rid.variants] == [
        ("Null", None, TypeExpr("null")),
        ("Number", None, TypeExpr("primitive", name="integer", format="int64")),
        ("Str", None, STRING),
    ]
    server = defs["McpServer"]
    assert (server.shape, server.discriminator) == ("union", None)
    assert [(v.ref, v.tag, v.inline) for v in server.variants] == [("HttpServer", None, None), ("StdioServer", None, None)]
    assert defs["HttpServer"].additional_properties is False


def test_integer_formats_and_bounds_are_kept_as_written() -> None:
    defs = fixture_ir("integer_formats").defs
    types = {p.wire_name: p.type for p in defs["Limits"].properties}
    assert types == {
        "small": TypeExpr("primitive", name="integer", format="uint16"),
        "count": TypeExpr("primitive", name="integer", format="uint32", constraints=(("minimum", 1),)),
        "big": TypeExpr("primitive", name="integer", format="uint64", constraints=(("minimum", 0),)),
        "offset": TypeExpr("primitive", name="integer", format="int64"),
        "plain": TypeExpr("primitive", name="integer"),
    }
    port = defs["Port"]
    assert port.shape == "primitive"
    assert port.primitive == TypeExpr("primitive", name="integer", format="uint16", constraints=(("minimum", 1024),))


def test_nullable_is_a_flag_beside_the_type_not_a_union_member() -> None:
    plan = fixture_ir("nullable").defs["Plan"]
    got = {p.wire_name: (p.type, p.required, p.nullable, p.has_default, p.default) for p in plan.properties}
    person = TypeExpr("ref", name="Person")
    assert got == {
        "title": (STRING, False, True, False, None),
        "owner": (person, False, True, False, None),
        "note": (STRING, False, False, False, None),
        "reviewer": (person, False, True, True, None),
        "entries": (TypeExpr("array", items=person), True, False, False, None),
    }


def test_recursive_refs_stay_refs() -> None:
    defs = fixture_ir("recursive_ref").defs
    tree = {p.wire_name: p for p in defs["Tree"].properties}
    assert tree["children"].type == TypeExpr("array", items=TypeExpr("ref", name="Tree"))
    assert (tree["parent"].type, tree["parent"].nullable) == (TypeExpr("ref", name="Tree"), True)
    expr = defs["Expr"]
    assert (expr.shape, [v.ref for v in expr.variants]) == ("union", ["Num", "Sum"])
    assert defs["Sum"].properties[0].type == TypeExpr("array", items=TypeExpr("ref", name="Expr"))


def test_an_unknown_ref_is_refused_with_its_pointer() -> None:
    schema = fixture_schema("recursive_ref")
    schema["$defs"]["Sum"]["properties"]["terms"]["items"] = {"$ref": "#/$defs/Nope"}
    with pytest.raises(AcpgenError) as info:
        build_ir(schema, fixture_meta(), "fx.json")
    assert str(info.value) == "fx.json: unknown $ref '#/$defs/Nope' at /$defs/Sum/properties/terms/items: no such def"


def test_an_unclassifiable_def_is_refused_by_name() -> None:
    schema = fixture_schema("object")
    # A def that only refers to another (an alias by $ref) is not a shape the IR models.
    # (An array def is: it becomes an alias of list[...], see tests/test_unusual_schemas.py.)
    schema["$defs"]["Odd"] = {"$ref": f"#/$defs/{next(iter(schema['$defs']))}"}
    with pytest.raises(AcpgenError, match=r"/\$defs/Odd: cannot classify def 'Odd'"):
        build_ir(schema, fixture_meta(), "fx.json")
