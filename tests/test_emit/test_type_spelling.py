"""The one speller of type trees (acpgen.emit.type_spelling), with hand-written expectations."""

from __future__ import annotations

import pytest

from acpgen.emit import type_tree as tt
from acpgen.emit.escape import EscapeError
from acpgen.emit.type_spelling import spell_type


def name(n: str, qual: bool = False) -> tt.Named:
    return tt.Named(n, qual)


def test_names_primitives_and_containers() -> None:
    assert spell_type(name("SessionId")) == "SessionId"
    assert spell_type(name("SessionId", qual=True)) == "models.SessionId"
    assert spell_type(tt.Prim("StrictStr")) == "StrictStr"
    assert spell_type(tt.Prim("Uint16", (("ge", 1),), qual=True)) == "Annotated[models.Uint16, Field(ge=1)]"
    assert spell_type(tt.ListOf(name("ContentBlock"))) == "list[ContentBlock]"
    assert spell_type(tt.ListOf(tt.AnyNode(), (("min_length", 1),))) == "Annotated[list[Any], Field(min_length=1)]"
    assert spell_type(tt.DictOf(tt.NoneNode())) == "dict[str, None]"
    assert spell_type(tt.Lit("text")) == 'Literal["text"]'


def test_unions() -> None:
    members = (name("A"), name("B"))
    assert spell_type(tt.UnionOf(members)) == "A | B"
    assert spell_type(tt.LeftToRight(members)) == 'Annotated[A | B, Field(union_mode="left_to_right")]'
    assert spell_type(tt.Disc("type", members)) == 'Annotated[A | B, Field(discriminator="type"), _BY_CLASS]'
    tagged = tt.Tagged(wire="kind", attr="kind", known=("a",), other="(other)", default=None,
                    message="'kind' must be a",
                    members=(tt.TaggedMember("a", name("A")), tt.TaggedMember("(other)", name("B"))))
    assert spell_type(tagged) == (
        'Annotated[Annotated[A, Tag("a")] | Annotated[B, Tag("(other)")], Discriminator('
        '_tag_in("kind", "kind", ["a"], other="(other)", untagged=None), custom_error_type="union_tag", '
        "custom_error_message=\"'kind' must be a\"), _BY_CLASS]")


def test_qualified_names_are_spelled_from_the_models_module() -> None:
    tree = tt.UnionOf((tt.ListOf(name("A")), tt.DictOf(tt.Prim("Uint16", (("ge", 1),))), tt.Lit("x")))
    assert spell_type(tt.qualified(tree)) == (
        'list[models.A] | dict[str, Annotated[models.Uint16, Field(ge=1)]] | Literal["x"]')
    assert spell_type(tree) == 'list[A] | dict[str, Annotated[Uint16, Field(ge=1)]] | Literal["x"]'


def test_what_it_writes_is_escaped() -> None:
    assert spell_type(tt.Lit('a"\n')) == "Literal['a\"\\n']"
    with pytest.raises(EscapeError):
        spell_type(name("os.system('x')"))
