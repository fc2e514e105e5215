"""The one speller of type trees (acpgen.emit.type_spelling), with hand-written expectations."""

from __future__ import annotations

import pytest

from acpgen.emit.escape import EscapeError
from acpgen.emit.type_spelling import spell_type


def name(n: str, qual: bool = False) -> dict[str, object]:
    return {"k": "name", "name": n, **({"qual": True} if qual else {})}


def test_names_primitives_and_containers() -> None:
    assert spell_type(name("SessionId")) == "SessionId"
    assert spell_type(name("SessionId", qual=True)) == "models.SessionId"
    assert spell_type({"k": "prim", "base": "StrictStr", "kw": []}) == "StrictStr"
    assert spell_type({"k": "prim", "base": "Uint16", "kw": [("ge", 1)], "qual": True}) == (
        "Annotated[models.Uint16, Field(ge=1)]")
    assert spell_type({"k": "list", "items": name("ContentBlock"), "kw": []}) == "list[ContentBlock]"
    assert spell_type({"k": "list", "items": {"k": "any"}, "kw": [("min_length", 1)]}) == (
        "Annotated[list[Any], Field(min_length=1)]")
    assert spell_type({"k": "dict", "items": {"k": "none"}}) == "dict[str, None]"
    assert spell_type({"k": "lit", "value": "text"}) == 'Literal["text"]'


def test_unions() -> None:
    members = [name("A"), name("B")]
    assert spell_type({"k": "union", "members": members}) == "A | B"
    assert spell_type({"k": "ltr", "members": members}) == (
        'Annotated[A | B, Field(union_mode="left_to_right")]')
    assert spell_type({"k": "disc", "members": members, "field": "type"}) == (
        'Annotated[A | B, Field(discriminator="type"), _BY_CLASS]')
    tagged = {"k": "tagged", "members": [{"type": name("A"), "tag": "a"}, {"type": name("B"), "tag": "(other)"}],
              "wire": "kind", "attr": "kind", "known": ["a"], "other": "(other)", "default": None,
              "message": "'kind' must be a"}
    assert spell_type(tagged) == (
        'Annotated[Annotated[A, Tag("a")] | Annotated[B, Tag("(other)")], Discriminator('
        '_tag_in("kind", "kind", ["a"], other="(other)", untagged=None), custom_error_type="union_tag", '
        "custom_error_message=\"'kind' must be a\"), _BY_CLASS]")


def test_what_it_writes_is_escaped() -> None:
    assert spell_type({"k": "lit", "value": 'a"\n'}) == "Literal['a\"\\n']"
    with pytest.raises(EscapeError):
        spell_type(name("os.system('x')"))
    with pytest.raises(ValueError, match="no spelling"):
        spell_type({"k": "tuple"})
