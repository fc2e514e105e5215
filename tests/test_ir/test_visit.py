"""``acpgen.ir.visit``: the one traversal of ``TypeExpr`` (walk, refs, fold, def_types)."""

from __future__ import annotations

from support.fixture_schemas import fixture_ir

from acpgen.ir.describe import describe_type
from acpgen.ir.types import TypeExpr
from acpgen.ir.visit import children, def_types, fold, refs, walk, walk_all

A = TypeExpr("ref", name="A")
B = TypeExpr("ref", name="B")
INT32 = TypeExpr("primitive", name="integer", format="int32", constraints=(("minimum", 0),))
# list[A | map[string, B | int32]]
NESTED = TypeExpr("array", items=TypeExpr("union", variants=(A, TypeExpr("map", items=TypeExpr("union", variants=(B, INT32))))))


def test_children_are_items_then_variants() -> None:
    assert children(A) == ()
    assert children(NESTED) == (NESTED.items,)
    union = TypeExpr("union", variants=(A, B))
    assert children(union) == (A, B)


def test_walk_is_depth_first_parents_first_in_order() -> None:
    kinds = [(t.kind, t.name) for t in walk(NESTED)]
    assert kinds == [("array", None), ("union", None), ("ref", "A"), ("map", None), ("union", None),
                     ("ref", "B"), ("primitive", "integer")]
    assert list(walk(None)) == []
    assert [t.name for t in walk_all([A, None, B])] == ["A", "B"]


def test_refs_at_any_depth() -> None:
    assert refs(NESTED) == {"A", "B"}
    assert refs(INT32) == set() and refs(None) == set()


def test_fold_computes_bottom_up() -> None:
    depth = fold(NESTED, lambda t, items, variants: 1 + max([items or 0, *variants], default=0))
    assert depth == 5
    assert describe_type(NESTED) == "list[A | map[string, B | integer(int32)]]"
    formats = fold(NESTED, lambda t, items, variants: {t.format} | (items or set()) | set().union(*variants))
    assert formats == {None, "int32"}


def test_def_types_lists_every_position_of_a_def() -> None:
    tagged = fixture_ir("tagged_union").defs["Elicitation"]
    # message (common) and the "other" branch's own mode member; FormMode is a variant ref.
    assert [describe_type(t) for t in def_types(tagged)] == ["string", "string"]
    rid = fixture_ir("untagged_union").defs["RequestId"]
    assert [describe_type(t) for t in def_types(rid)] == ["null", "integer(int64)", "string"]
    enum = fixture_ir("open_enum").defs["ErrorCode"]
    assert list(def_types(enum)) == [TypeExpr("primitive", name="integer", format="int32")]
    port = fixture_ir("integer_formats").defs["Port"]
    assert [t.format for t in def_types(port)] == ["uint16"]
