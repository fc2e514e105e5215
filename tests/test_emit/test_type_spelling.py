"""The one speller of type trees (acpgen.emit.type_spelling), with hand-written expectations."""

from __future__ import annotations

import pytest

from acpgen.emit.escape import EscapeError
from acpgen.emit.type_spelling import spell_type
from acpgen.emit.type_tree import (
    AnyNode,
    DictOf,
    Disc,
    LeftToRight,
    ListOf,
    Lit,
    Named,
    NoneNode,
    Prim,
    Tagged,
    TaggedMember,
    UnionOf,
    qualified,
)


def name(n: str, qual: bool = False) -> Named:
    return Named(n, qual)


def test_names_primitives_and_containers() -> None:
    assert spell_type(name("SessionId")) == "SessionId"
    assert spell_type(name("SessionId", qual=True)) == "models.SessionId"
    assert spell_type(Prim("StrictStr")) == "StrictStr"
    assert spell_type(Prim("Uint16", (("ge", 1),), qual=True)) == "Annotated[models.Uint16, Field(ge=1)]"
    assert spell_type(ListOf(name("ContentBlock"))) == "list[ContentBlock]"
    assert spell_type(ListOf(AnyNode(), (("min_length", 1),))) == "Annotated[list[Any], Field(min_length=1)]"
    assert spell_type(DictOf(NoneNode())) == "dict[str, None]"
    assert spell_type(Lit("text")) == 'Literal["text"]'


def test_unions() -> None:
    members = (name("A"), name("B"))
    assert spell_type(UnionOf(members)) == "A | B"
    assert spell_type(LeftToRight(members)) == 'Annotated[A | B, Field(union_mode="left_to_right")]'
    assert spell_type(Disc("type", members)) == 'Annotated[A | B, Field(discriminator="type"), _BY_CLASS]'
    tagged = Tagged(wire="kind", attr="kind", known=("a",), other="(other)", default=None,
                    message="'kind' must be a",
                    members=(TaggedMember("a", name("A")), TaggedMember("(other)", name("B"))))
    assert spell_type(tagged) == (
        'Annotated[Annotated[A, Tag("a")] | Annotated[B, Tag("(other)")], Discriminator('
        '_tag_in("kind", "kind", ["a"], other="(other)", untagged=None), custom_error_type="union_tag", '
        "custom_error_message=\"'kind' must be a\"), _BY_CLASS]")


def test_qualified_names_are_spelled_from_the_models_module() -> None:
    tree = UnionOf((ListOf(name("A")), DictOf(Prim("Uint16", (("ge", 1),))), Lit("x")))
    assert spell_type(qualified(tree)) == (
        'list[models.A] | dict[str, Annotated[models.Uint16, Field(ge=1)]] | Literal["x"]')
    assert spell_type(tree) == 'list[A] | dict[str, Annotated[Uint16, Field(ge=1)]] | Literal["x"]'


def test_what_it_writes_is_escaped() -> None:
    assert spell_type(Lit('a"\n')) == "Literal['a\"\\n']"
    with pytest.raises(EscapeError):
        spell_type(name("os.system('x')"))
