# Edit acpgen/shipped/runtime/model_base.py, not this file: acpgen generate writes it.
"""The fixed base of the generated message models: strict primitives, enums, tags, ``Model``.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/model_base.py``);
``models.py`` (rendered from the schema) builds one class, enum or alias per ``$def`` on it.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from operator import attrgetter
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    TypeAlias,
    TypeVar,
    cast,
    get_args,
    get_origin,
)

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    Strict,
)
from pydantic_core import core_schema

# The primitive types of member annotations. Strict: JSON types are never coerced (a number
# is not a string), as the schema requires.
StrictStr = Annotated[str, Strict()]
"""A JSON string."""
StrictInt = Annotated[int, Strict()]
"""A JSON integer (a boolean is not one)."""
StrictFloat = Annotated[float, Strict()]
"""A JSON number."""
StrictBool = Annotated[bool, Strict()]
"""A JSON boolean."""


_T = TypeVar("_T")
if TYPE_CHECKING:
    # An optional member that is not nullable reads as ``X | None`` to a type checker
    # (None when omitted) ...
    Omittable: TypeAlias = _T | None
else:

    class Omittable:
        """An optional member that may be omitted but is never null on the wire.

        Type checkers read ``Omittable[X]`` as ``X | None`` (None when omitted); pydantic
        validates it as plain ``X``: absent is fine (the default None is never validated or
        dumped with exclude_unset), an explicit null is rejected with one error, and valid
        input pays nothing for the check."""

        def __class_getitem__(cls, item: Any) -> Any:
            return item

        @classmethod
        def __get_pydantic_core_schema__(
            cls, source: Any, handler: GetCoreSchemaHandler
        ) -> core_schema.CoreSchema:
            # Bare ``Omittable`` (no ``[X]``) as a type: anything, like a bare ``Optional``.
            return core_schema.any_schema()


class StrEnumBase(str, Enum):
    """The base of the schema's closed string enums."""

    if not TYPE_CHECKING:
        # pydantic reads ``.value`` of every enum member it dumps to JSON, and Enum's own
        # ``value`` is a Python-level descriptor; a property over the stored ``_value_``
        # (C-level get) makes such dumps markedly cheaper. Same value, same semantics.
        value = property(attrgetter("_value_"))


class IntEnumBase(int, Enum):
    """The base of the schema's closed integer enums."""

    if not TYPE_CHECKING:
        value = property(attrgetter("_value_"))  # see StrEnumBase


_ABSENT = object()


def tag(value: _T, wire: str | None = None) -> _T:
    """The tag member of a union branch class (``type: Literal["text"] = tag("text")``).

    Type checkers see the constant as the member's default, so ``ContentBlockText(text="hi")``
    type-checks; at run time the member is required (validated input always carries it, so
    it is always dumped, also with exclude_unset/exclude_defaults) and ``Model`` fills it in
    on construction.
    """
    if wire is None:
        return cast(_T, Field())
    return cast(_T, Field(validation_alias=wire, serialization_alias=wire))


def tag_in(
    wire: str, attr: str, known: list[str], *, other: str | None, untagged: str | None
) -> Callable[[Any], str | None]:
    """The discriminator of a union whose tag may be absent or open-ended.

    A listed tag picks its branch; another string picks the catch-all branch (if any, else
    the untagged branch); a missing or non-string tag picks the untagged branch (if any).
    Otherwise ``None``: pydantic reports ONE error, which names the tag member.
    """
    listed = frozenset(known)
    # Dumping asks for the tag of every instance: a class whose tag is fixed (a Literal
    # member, or no such member) is answered from this cache after its first instance.
    by_class: dict[type, str | None] = {}

    def of(tag: Any) -> str | None:
        if isinstance(tag, str):
            if tag in listed:
                return tag
            return other if other is not None else untagged
        return untagged

    def pick(value: Any) -> str | None:
        if isinstance(value, dict):
            return of(value.get(wire, _ABSENT))
        cls = value.__class__
        if cls in by_class:
            return by_class[cls]
        # A model instance: its declared members live in __dict__ (getattr() on a model
        # without the member would raise and catch AttributeError every time).
        picked = of(getattr(value, "__dict__", {}).get(attr, _ABSENT))
        declared = getattr(cls, "__pydantic_fields__", {}).get(attr)
        if declared is None or (
            get_origin(declared.annotation) is Literal and len(get_args(declared.annotation)) == 1
        ):
            by_class[cls] = picked
        return picked

    return pick


class _DumpByClass:
    """Marks a union alias: its values dump through their own class's serializer.

    pydantic otherwise asks the union's discriminator which branch a value is before
    dumping it -- for a callable discriminator a Python call per value, which made such
    dumps several times slower than a plain union's. Every branch is a distinct class, so
    the value's class alone decides; validation is unchanged.
    """

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        schema = handler(source)
        cast(dict[str, Any], schema)["serialization"] = core_schema.simple_ser_schema("any")
        return schema


BY_CLASS = _DumpByClass()


def _init_by_name(tags: list[tuple[str, str, Any]]) -> Callable[..., None]:
    """``__init__`` of a model: members by Python name (or wire name), and each tag member
    that was not given supplied."""

    def __init__(self: Any, /, **data: Any) -> None:
        for name, wire, value in tags:
            if name not in data and wire not in data:
                data[name] = value
        self.__pydantic_validator__.validate_python(data, self_instance=self, by_name=True)

    # pydantic treats a subclass whose __init__ is not its own as having a custom __init__
    # and calls it on every validation; this one does nothing validation needs.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]
    return __init__


class Model(BaseModel):
    # Open objects: unknown members are kept and dumped back (extra="allow"). Input (dicts,
    # JSON) is read by wire names only, as the schema says; construction takes Python names
    # (the __init__ installed below); dumps use wire names.
    model_config = ConfigDict(
        extra="allow",
        validate_by_name=False,
        validate_by_alias=True,
        serialize_by_alias=True,
    )

    if not TYPE_CHECKING:

        @classmethod
        def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
            super().__pydantic_init_subclass__(**kwargs)
            # A required member whose type is one constant is a tag: construction may omit it.
            tags = [
                (name, info.serialization_alias or name, get_args(info.annotation)[0])
                for name, info in cls.__pydantic_fields__.items()
                if info.is_required()
                and get_origin(info.annotation) is Literal
                and len(get_args(info.annotation)) == 1
            ]
            # Installed after pydantic built the class, so validation never calls it.
            cls.__init__ = _init_by_name(tags)
